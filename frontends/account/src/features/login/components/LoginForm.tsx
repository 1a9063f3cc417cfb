// Log in: mobile + OTP by default, or email + password; both can end in the OTP view.
import { useT } from '@marque/i18n';
import { validateLoginMobile, MOBILE_LENGTH } from '@marque/rules';
import { login } from '@marque/session';
import { afterSignIn } from '../../../lib/signed-in';
import { useState, type FormEvent } from 'react';
import { FormAlert } from '../../../lib/FormAlert';
import { loginWithEmail } from '../api/login-with-email';
import { requestMobileOtp } from '../api/request-mobile-otp';
import type { OtpTarget } from '../../../lib/otp/OtpForm';

type Mode = 'mobile' | 'email';

export function LoginForm({ onOtp }: { onOtp: (target: OtpTarget) => void }) {
  const t = useT('account');
  const messages = useT('messages');
  const [mode, setMode] = useState<Mode>('mobile');
  const [mobile, setMobile] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const mobileIssue = validateLoginMobile(mobile).issue;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    setBusy(true);
    try {
      if (mode === 'mobile') {
        const answer = await requestMobileOtp(mobile);
        if (answer.ok) onOtp({ mobile: answer.body.mobile || mobile });
        else setAlert(answer.message ?? messages('common.unknown'));
        return;
      }
      const answer = await loginWithEmail(email, password);
      if (!answer.ok) setAlert(answer.message ?? messages('common.unknown'));
      else if (answer.body.status === 'not verified') onOtp({ email: answer.body.email, mobile: answer.body.mobile });
      else if (answer.body.token) {
        await login(answer.body.token);
        afterSignIn(answer.body.token);
      }
      else setAlert(messages('common.unknown'));
    } finally {
      setBusy(false);
    }
  };

  const switchTo = (next: Mode) => {
    setMode(next);
    setAlert(null);
  };

  return (
    <form className="account-form" onSubmit={submit} noValidate>
      <FormAlert message={alert} />
      {mode === 'mobile' ? (
        <div className="field">
          <label htmlFor="login-mobile">{t('field.mobile')}</label>
          <input
            id="login-mobile"
            type="tel"
            inputMode="numeric"
            autoComplete="tel-national"
            value={mobile}
            aria-invalid={mobileIssue ? true : undefined}
            aria-describedby={mobileIssue ? 'login-mobile-issue' : undefined}
            onChange={(e) => setMobile(validateLoginMobile(e.target.value).value)}
          />
          {mobileIssue ? (
            <p id="login-mobile-issue" className="field__issue">
              {messages(mobileIssue.code)}
            </p>
          ) : null}
        </div>
      ) : (
        <>
          <div className="field">
            <label htmlFor="login-email">{t('field.email')}</label>
            <input id="login-email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="login-password">{t('field.password')}</label>
            <input
              id="login-password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </div>
        </>
      )}
      <button
        type="submit"
        className="button button--primary"
        disabled={busy || (mode === 'mobile' ? mobile.length !== MOBILE_LENGTH : email.trim() === '' || password === '')}
      >
        {mode === 'mobile' ? t('login.send_otp') : t('login.submit')}
      </button>
      <button type="button" className="button button--link" onClick={() => switchTo(mode === 'mobile' ? 'email' : 'mobile')}>
        {mode === 'mobile' ? t('login.use_email') : t('login.use_mobile')}
      </button>
    </form>
  );
}
