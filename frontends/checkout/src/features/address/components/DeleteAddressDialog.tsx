// The confirmation before an address is deleted: a modal dialog with the specification's question.
import { useT } from '@marque/i18n';
import { useModalDialog } from '@marque/ui';
import { useId, useRef } from 'react';
import { createPortal } from 'react-dom';

export function DeleteAddressDialog({ onConfirm, onCancel }: { onConfirm: () => void; onCancel: () => void }) {
  const t = useT('checkout');
  const messages = useT('messages');
  const questionId = useId();
  const no = useRef<HTMLButtonElement>(null);
  const dialog = useModalDialog<HTMLDivElement>(onCancel, no);
  return createPortal(
    <div className="checkout-backdrop">
      <div
        ref={dialog.ref}
        className="confirm-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={questionId}
        onKeyDown={dialog.onKeyDown}
      >
        <p id={questionId}>{messages('address.delete_confirm')}</p>
        <div className="confirm-dialog__actions">
          <button type="button" className="button" onClick={onConfirm}>
            {t('address.delete_yes')}
          </button>
          <button ref={no} type="button" className="button button--quiet" onClick={onCancel}>
            {t('address.delete_no')}
          </button>
        </div>
      </div>
    </div>,
    document.body,
  );
}
