// The text of a server's refusal: the shop rule's own message by its code (in the visitor's language) when the
// rules package knows the code (a shopper's message or one only staff read), else the server's message as it came.
import { useT } from '@marque/i18n';
import { MESSAGES, type MessageCode } from '@marque/rules';
import { OFFICE_MESSAGES, type OfficeMessageCode } from '@marque/rules/office';
import { useCallback } from 'react';

const isRuleCode = (code: string | undefined): code is MessageCode => code !== undefined && Object.hasOwn(MESSAGES, code);
const isOfficeCode = (code: string | undefined): code is OfficeMessageCode =>
  code !== undefined && Object.hasOwn(OFFICE_MESSAGES, code);

export function useMessageText(): (code: string | undefined, message: string | null) => string {
  const messages = useT('messages');
  const office = useT('office');
  const t = useT('admin');
  return useCallback(
    (code, message) => {
      if (isOfficeCode(code)) return office(code);
      if (isRuleCode(code)) return messages(code);
      return message ?? t('error.unknown');
    },
    [messages, office, t],
  );
}
