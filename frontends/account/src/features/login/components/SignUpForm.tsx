// Sign up: name, email, password twice, an optional picture and the mobile number; then the OTP view.
import { useT } from '@marque/i18n';
import { signUpAllowed, validateConfirmation, validateLoginMobile, validatePassword } from '@marque/rules';
import { useState, type FormEvent } from 'react';
import { FormAlert } from '../../../lib/FormAlert';
import { register } from '../api/register';
import type { OtpTarget } from '../../../lib/otp/OtpForm';

export function SignUpForm({ onOtp }: { onOtp: (target: OtpTarget) => void }) {
  const t = useT('account');
  const messages = useT('messages');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [mobile, setMobile] = useState('');
  const [profile, setProfile] = useState<File | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const passwordIssue = password === '' ? null : validatePassword(password);
  const confirmationIssue = confirmation === '' ? null : validateConfirmation(password, confirmation);
  const mobileIssue = validateLoginMobile(mobile).issue;
  const allowed = signUpAllowed({ name, email, password, confirmation, mobile });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!allowed || passwordIssue || confirmationIssue) return;
    setAlert(null);
    setBusy(true);
    const answer = await register({ name: name.trim(), email: email.trim(), password, mobile, profile });
    setBusy(false);
    if (answer.ok) onOtp({ email: answer.body.email || email.trim(), mobile: answer.body.mobile || mobile });
    else setAlert(answer.message ?? messages('common.unknown'));
  };

  const issue = (id: string, code: Parameters<typeof messages>[0] | undefined) =>
    code ? (
      <p id={id} className="field__issue">
        {messages(code)}
      </p>
    ) : null;

  return (
    <form className="account-form" onSubmit={submit} noValidate>
      <FormAlert message={alert} />
      <div className="field">
        <label htmlFor="signup-name">{t('field.name')}</label>
        <input id="signup-name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="signup-email">{t('field.email')}</label>
        <input id="signup-email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="signup-password">{t('field.password')}</label>
        <input
          id="signup-password"
          type="password"
          autoComplete="new-password"
          value={password}
          aria-invalid={passwordIssue ? true : undefined}
          aria-describedby={passwordIssue ? 'signup-password-issue' : undefined}
          onChange={(e) => setPassword(e.target.value)}
        />
        {issue('signup-password-issue', passwordIssue?.code)}
      </div>
      <div className="field">
        <label htmlFor="signup-confirmation">{t('field.confirm_password')}</label>
        <input
          id="signup-confirmation"
          type="password"
          autoComplete="new-password"
          value={confirmation}
          aria-invalid={confirmationIssue ? true : undefined}
          aria-describedby={confirmationIssue ? 'signup-confirmation-issue' : undefined}
          onChange={(e) => setConfirmation(e.target.value)}
        />
        {issue('signup-confirmation-issue', confirmationIssue?.code)}
      </div>
      <div className="field">
        <label htmlFor="signup-profile">{t('field.profile')}</label>
        <input id="signup-profile" type="file" accept="image/*" onChange={(e) => setProfile(e.target.files?.[0] ?? null)} />
      </div>
      <div className="field">
        <label htmlFor="signup-mobile">{t('field.mobile')}</label>
        <input
          id="signup-mobile"
          type="tel"
          inputMode="numeric"
          autoComplete="tel-national"
          value={mobile}
          aria-invalid={mobileIssue ? true : undefined}
          aria-describedby={mobileIssue ? 'signup-mobile-issue' : undefined}
          onChange={(e) => setMobile(validateLoginMobile(e.target.value).value)}
        />
        {issue('signup-mobile-issue', mobileIssue?.code)}
      </div>
      <button type="submit" className="button button--primary" disabled={!allowed || busy}>
        {t('signup.submit')}
      </button>
    </form>
  );
}
