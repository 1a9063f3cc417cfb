// OTP verification: a code sent to the email or the mobile number (each has its own; the server
// finds whose it is from both), and a resend after a short wait.
import { useT } from '@marque/i18n';
import { OTP_LENGTH, OTP_RESEND_AFTER_SECONDS, validateOtp } from '@marque/rules';
import { login } from '@marque/session';
import { afterSignIn } from '../signed-in';
import { useEffect, useState, type FormEvent } from 'react';
import { FormAlert } from '../FormAlert';
import { resendOtp } from './resend-otp';
import { verifyOtp } from './verify-otp';

export type OtpTarget = { email?: string; mobile?: string };

function useCountdown(seconds: number) {
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((n) => n - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);
  return [left, () => setLeft(seconds)] as const;
}

/** The email and the mobile the view names, whichever are known. */
function named(target: OtpTarget): OtpTarget {
  return {
    ...(target.email ? { email: target.email } : {}),
    ...(target.mobile ? { mobile: target.mobile } : {}),
  };
}

export function OtpForm({ target, onVerified }: { target: OtpTarget; onVerified?: () => void }) {
  const t = useT('account');
  const messages = useT('messages');
  const [otp, setOtp] = useState('');
  const [alert, setAlert] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [wait, restartWait] = useCountdown(OTP_RESEND_AFTER_SECONDS);
  const request = named(target);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    const problem = validateOtp(otp);
    if (problem) {
      setAlert(messages(problem.code));
      return;
    }
    setAlert(null);
    setBusy(true);
    const answer = await verifyOtp({ ...request, otp: otp.trim() });
    setBusy(false);
    if (answer.ok && answer.body.token) {
      await login(answer.body.token);
      afterSignIn(answer.body.token);
      onVerified?.();
    } else setAlert(messages('otp.wrong'));
  };

  const resend = async () => {
    setAlert(null);
    setNotice(null);
    const answer = await resendOtp(request);
    if (answer.ok) {
      setNotice(answer.body.message);
      restartWait();
    } else {
      setAlert(answer.message ?? messages('common.unknown'));
    }
  };

  return (
    <form className="account-form" onSubmit={submit} noValidate>
      <FormAlert message={alert} />
      {notice ? (
        <p className="form-notice" role="status">
          {notice}
        </p>
      ) : null}
      <p>{t('otp.sent_to', { to: [target.mobile, target.email].filter(Boolean).join(', ') })}</p>
      <div className="field">
        <label htmlFor="otp-code">{t('field.otp')}</label>
        <input
          id="otp-code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={OTP_LENGTH}
          value={otp}
          onChange={(e) => setOtp(e.target.value.replace(/\D/g, '').slice(0, OTP_LENGTH))}
        />
      </div>
      <button type="submit" className="button button--primary" disabled={busy}>
        {t('otp.submit')}
      </button>
      <button type="button" className="button button--link" disabled={wait > 0} onClick={() => void resend()}>
        {wait > 0 ? t('otp.resend_wait', { seconds: wait }) : t('otp.resend')}
      </button>
    </form>
  );
}
