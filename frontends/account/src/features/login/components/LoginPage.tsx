// /login: one screen with three views (log in, sign up, OTP verification) under the checkout step bar.
// A signed-in visitor goes on to /address.
import { useT } from '@marque/i18n';
import { useSession } from '@marque/session';
import { StepBar, useDocumentTitle, useShopIdentity } from '@marque/ui';
import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { GoogleButton } from './GoogleButton';
import { LoginForm } from './LoginForm';
import { OtpForm, type OtpTarget } from '../../../lib/otp/OtpForm';
import { SignUpForm } from './SignUpForm';

type View = { name: 'login' } | { name: 'signup' } | { name: 'otp'; target: OtpTarget };

export function LoginPage() {
  const t = useT('account');
  const { status } = useSession();
  const { signIn } = useShopIdentity();
  const [, navigate] = useLocation();
  const [view, setView] = useState<View>({ name: 'login' });
  const toOtp = (target: OtpTarget) => setView({ name: 'otp', target });
  const heading = view.name === 'login' ? t('login.title') : view.name === 'signup' ? t('signup.title') : t('otp.title');
  useDocumentTitle(heading);

  useEffect(() => {
    if (status === 'authenticated') navigate('/address', { replace: true });
  }, [status, navigate]);

  return (
    <section className="account-page login-page">
      <StepBar current="authorize" authorize />
      <div className="account-card">
        <h1>{heading}</h1>
        {view.name === 'login' ? <LoginForm onOtp={toOtp} /> : null}
        {view.name === 'signup' ? <SignUpForm onOtp={toOtp} /> : null}
        {view.name === 'otp' ? <OtpForm target={view.target} /> : null}
        {view.name !== 'otp' && signIn ? (
          <>
            <p className="login-page__or">{t('login.or')}</p>
            <GoogleButton />
          </>
        ) : null}
        <p className="login-page__switch">
          {view.name === 'login' ? (
            <button type="button" className="button button--link" onClick={() => setView({ name: 'signup' })}>
              {t('login.to_signup')}
            </button>
          ) : (
            <button type="button" className="button button--link" onClick={() => setView({ name: 'login' })}>
              {t('signup.to_login')}
            </button>
          )}
        </p>
      </div>
    </section>
  );
}
