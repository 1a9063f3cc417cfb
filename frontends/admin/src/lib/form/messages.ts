// The text of a server's refusal: the shop rule's own message by its code (in the visitor's language) when the
// rules package knows the code, else the server's message as it came.
import { useT } from '@marque/i18n';
import { MESSAGES, type MessageCode } from '@marque/rules';
import { useCallback } from 'react';

const isRuleCode = (code: string | undefined): code is MessageCode => code !== undefined && Object.hasOwn(MESSAGES, code);

export function useMessageText(): (code: string | undefined, message: string | null) => string {
  const messages = useT('messages');
  const t = useT('admin');
  return useCallback(
    (code, message) => (isRuleCode(code) ? messages(code) : (message ?? t('error.unknown'))),
    [messages, t],
  );
}
