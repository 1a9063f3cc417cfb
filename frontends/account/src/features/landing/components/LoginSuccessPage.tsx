// /login/success?token=…: the sign-in popup's landing. Stores the token, takes it out of the address
// bar at once (history, screenshots), and closes the popup after a second; the opener then refetches the user.
import { useT } from '@marque/i18n';
import { TOKEN_KEY } from '@marque/session';
import { useDocumentTitle } from '@marque/ui';
import { useEffect, useState } from 'react';

export const LANDING_CLOSE_MS = 1000;

/** Reads and removes the token from the address; runs once, before the first paint. */
function takeToken(): string | null {
  const url = new URL(window.location.href);
  const token = url.searchParams.get('token');
  if (token === null) return null;
  url.searchParams.delete('token');
  window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
  return token || null;
}

export function LoginSuccessPage() {
  const t = useT('account');
  useDocumentTitle(t('landing.success'));
  const [token] = useState(takeToken);

  useEffect(() => {
    if (!token) {
      console.log('No token');
      return;
    }
    try {
      localStorage.setItem(TOKEN_KEY, token);
    } catch {
      // Storage refused: the opener stays logged out, as after a failed sign-in.
    }
    const timer = setTimeout(() => window.close(), LANDING_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [token]);

  return token ? (
    <section className="account-page landing">
      <h1>{t('landing.success')}</h1>
    </section>
  ) : null;
}
