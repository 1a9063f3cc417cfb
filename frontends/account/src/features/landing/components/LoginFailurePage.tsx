// /login/failure: sign-in with Google did not complete; says so (PRODUCT_RULES.md) and closes the popup.
import { useT } from '@marque/i18n';
import { useDocumentTitle } from '@marque/ui';
import { useEffect } from 'react';
import { LANDING_CLOSE_MS } from './LoginSuccessPage';

export function LoginFailurePage() {
  const t = useT('account');
  useDocumentTitle(t('landing.failure_title'));
  useEffect(() => {
    const timer = setTimeout(() => window.close(), LANDING_CLOSE_MS);
    return () => clearTimeout(timer);
  }, []);
  return (
    <section className="account-page landing">
      <h1>{t('landing.failure_title')}</h1>
      <p role="alert">{t('landing.failure')}</p>
    </section>
  );
}
