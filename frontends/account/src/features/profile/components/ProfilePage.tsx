// /profile: the customer's picture, name and email, an edit mode for the name and picture, and their data rights
// (download a copy, delete the account). An email or mobile not yet proven says so, with a Verify that sends its code and asks for it.
import { useLanguage, useT } from '@marque/i18n';
import type { User } from '@marque/api-client';
import { refetchUser } from '@marque/session';
import { formatRupees, useDocumentTitle } from '@marque/ui';
import { useState, type FormEvent } from 'react';
import { Avatar } from '../../../lib/Avatar';
import { FormAlert } from '../../../lib/FormAlert';
import { Loading } from '../../../lib/Loading';
import { useCustomer } from '../../../lib/use-customer';
import { resendOtp } from '../../../lib/otp/resend-otp';
import { OtpForm } from '../../../lib/otp/OtpForm';
import { updateUser } from '../api/update-user';
import { PrivacyActions } from './PrivacyActions';

export function ProfilePage() {
  const t = useT('account');
  useDocumentTitle(t('profile.title'));
  const user = useCustomer();
  return (
    <section className="account-page profile-page">
      <h1>{t('profile.title')}</h1>
      {user ? (
        <>
          <Profile user={user} />
          <PrivacyActions user={user} />
        </>
      ) : (
        <Loading />
      )}
    </section>
  );
}

/** 'Not verified' and its Verify button: sends the codes of the unproven channels, then the OTP view. */
function Unverified({ user }: { user: User }) {
  const t = useT('account');
  const messages = useT('messages');
  const [asking, setAsking] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);
  const target = { email: user.email || undefined, mobile: user.mobile || undefined };
  const verify = async () => {
    setAlert(null);
    const answer = await resendOtp(target);
    if (!answer.ok) setAlert(answer.message ?? messages('common.unknown'));
    setAsking(true);
  };
  return (
    <>
      <span className="profile__unverified">{t('profile.unverified')}</span>{' '}
      {asking ? (
        <>
          <FormAlert message={alert} />
          <OtpForm target={target} onVerified={() => setAsking(false)} />
        </>
      ) : (
        <button type="button" className="button button--link" onClick={() => void verify()}>
          {t('profile.verify')}
        </button>
      )}
    </>
  );
}

/** The store credit's balance, and until when the first of it can be spent (a day in India). */
function StoreCredit({ credit }: { credit: User['storeCredit'] | undefined }) {
  const t = useT('account');
  const language = useLanguage();
  const balance = credit?.balance ?? 0;
  const date = credit?.expiresAt ? new Date(credit.expiresAt) : null;
  if (balance <= 0 || !date || Number.isNaN(date.getTime())) return <>{formatRupees(0)}</>;
  const until = new Intl.DateTimeFormat(language === 'hi' ? 'hi-IN' : 'en-IN', { dateStyle: 'medium', timeZone: 'Asia/Kolkata' }).format(date);
  return <>{t('profile.store_credit_until', { amount: formatRupees(balance), date: until })}</>;
}

function Profile({ user }: { user: User }) {
  const t = useT('account');
  const messages = useT('messages');
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(user.name);
  const [image, setImage] = useState<File | null>(null);
  const [inputKey, setInputKey] = useState(0);
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const changed = name.trim() !== '' && (name !== user.name || image !== null);

  const cancel = () => {
    setName(user.name);
    setImage(null);
    setInputKey((k) => k + 1);
    setAlert(null);
    setEditing(false);
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!changed) return;
    setBusy(true);
    setAlert(null);
    const answer = await updateUser(user._id, name.trim(), image);
    if (answer.ok) {
      await refetchUser();
      setImage(null);
      setEditing(false);
    } else {
      setAlert(answer.message ?? messages('common.unknown'));
    }
    setBusy(false);
  };

  return (
    <div className="account-card profile">
      <Avatar src={user.profile} size={96} className="avatar avatar--large" />
      {editing ? (
        <form className="account-form" onSubmit={save} noValidate>
          <FormAlert message={alert} />
          <div className="field">
            <label htmlFor="profile-name">{t('field.name')}</label>
            <input id="profile-name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="profile-image">{t('field.profile')}</label>
            <input
              key={inputKey}
              id="profile-image"
              type="file"
              accept="image/*"
              onChange={(e) => {
                const file = e.target.files?.[0] ?? null;
                setImage(file && file.type.startsWith('image/') ? file : null);
              }}
            />
          </div>
          <div className="profile__actions">
            <button type="submit" className="button button--primary" disabled={!changed || busy}>
              {t('profile.save')}
            </button>
            <button type="button" className="button button--quiet" onClick={cancel}>
              {t('profile.cancel')}
            </button>
          </div>
        </form>
      ) : (
        <>
          <p className="profile__name">{user.name}</p>
          <dl className="profile__details">
            <dt>{t('profile.email')}</dt>
            <dd>
              {user.email || user.googleEmail}
              {user.email && user.emailVerified === false ? (
                <>
                  {' '}
                  <Unverified user={user} />
                </>
              ) : null}
            </dd>
            {user.mobile ? (
              <>
                <dt>{t('profile.mobile')}</dt>
                <dd>
                  {user.mobile}
                  {user.mobileVerified === false ? (
                    <>
                      {' '}
                      <Unverified user={user} />
                    </>
                  ) : null}
                </dd>
              </>
            ) : null}
            <dt>{t('profile.store_credit')}</dt>
            <dd className="profile__store-credit">
              <StoreCredit credit={user.storeCredit} />
            </dd>
          </dl>
          <button
            type="button"
            className="button button--primary"
            onClick={() => {
              setName(user.name);
              setEditing(true);
            }}
          >
            {t('profile.edit')}
          </button>
        </>
      )}
    </div>
  );
}
