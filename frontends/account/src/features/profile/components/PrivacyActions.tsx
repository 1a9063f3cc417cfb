// "Download my data" and "Delete my account" on the profile (the Digital Personal Data Protection Act's
// rights of access and erasure). Deleting asks first, in a modal; once deleted the customer is signed out.
import { useT } from '@marque/i18n';
import type { User } from '@marque/api-client';
import { logout } from '@marque/session';
import { useModalDialog } from '@marque/ui';
import { useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { FormAlert } from '../../../lib/FormAlert';
import { deleteMyAccount, exportMyData, saveAsFile } from '../api/privacy';

export function PrivacyActions({ user }: { user: User }) {
  const t = useT('account');
  const messages = useT('messages');
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const download = async () => {
    setBusy(true);
    setAlert(null);
    const answer = await exportMyData(user._id);
    if (answer.ok) saveAsFile(answer.body);
    else setAlert(answer.message ?? messages('common.unknown'));
    setBusy(false);
  };

  const erase = async () => {
    setConfirming(false);
    setBusy(true);
    setAlert(null);
    const answer = await deleteMyAccount(user._id);
    if (answer.ok) {
      await logout();
      return;
    }
    setAlert(answer.message ?? messages('common.unknown'));
    setBusy(false);
  };

  return (
    <div className="account-card profile-privacy">
      <h2>{t('profile.privacy_heading')}</h2>
      <FormAlert message={alert} />
      <div className="profile__actions">
        <button type="button" className="button" onClick={() => void download()} disabled={busy}>
          {t('profile.download')}
        </button>
        <button type="button" className="button button--quiet" onClick={() => setConfirming(true)} disabled={busy}>
          {t('profile.delete')}
        </button>
      </div>
      {confirming ? <DeleteAccountDialog onConfirm={() => void erase()} onCancel={() => setConfirming(false)} /> : null}
    </div>
  );
}

function DeleteAccountDialog({ onConfirm, onCancel }: { onConfirm: () => void; onCancel: () => void }) {
  const t = useT('account');
  const questionId = useId();
  const no = useRef<HTMLButtonElement>(null);
  const dialog = useModalDialog<HTMLDivElement>(onCancel, no);
  return createPortal(
    <div className="account-dialog__backdrop">
      <div
        ref={dialog.ref}
        className="account-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={questionId}
        onKeyDown={dialog.onKeyDown}
      >
        <p id={questionId}>{t('profile.delete_confirm')}</p>
        <div className="profile__actions">
          <button type="button" className="button" onClick={onConfirm}>
            {t('profile.delete_yes')}
          </button>
          <button ref={no} type="button" className="button button--quiet" onClick={onCancel}>
            {t('profile.delete_no')}
          </button>
        </div>
      </div>
    </div>,
    document.body,
  );
}
