// Sign-in with Google in a 500×600 popup; when the popup closes, the user is fetched again
// (the landing page in the popup has stored the token). Offered only when the server has a sign-in
// provider configured (the shop identity's `signIn`): without one there is no button, not a popup
// showing an error (docs/shop-rules.md).
import { useT } from '@marque/i18n';
import { getSession, refetchUser } from '@marque/session';
import { afterSignIn } from '../../../lib/signed-in';
import { useShopIdentity } from '@marque/ui';
import { useEffect, useRef } from 'react';

export const POPUP_FEATURES = 'width=500,height=600';
export const POPUP_CHECK_MS = 500;

export function GoogleButton() {
  const { signIn } = useShopIdentity();
  return signIn ? <GoogleButtonFor start={signIn.start} /> : null;
}

function GoogleButtonFor({ start }: { start: string }) {
  const t = useT('account');
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearInterval(timer.current);
    },
    [],
  );

  const open = () => {
    const popup = window.open(start, 'marque-google-sign-in', POPUP_FEATURES);
    if (!popup) return;
    if (timer.current) clearInterval(timer.current);
    timer.current = setInterval(() => {
      if (!popup.closed) return;
      if (timer.current) clearInterval(timer.current);
      timer.current = null;
      void refetchUser().then(() => {
        const { token } = getSession();
        if (token) afterSignIn(token);
      });
    }, POPUP_CHECK_MS);
  };

  return (
    <button type="button" className="button button--google" onClick={open}>
      <svg aria-hidden="true" width="18" height="18" viewBox="0 0 48 48">
        <path fill="#4285F4" d="M44 24.5c0-1.6-.1-2.8-.4-4.1H24v7.6h11.3c-.5 2.8-2.1 5.1-4.6 6.7v5.5h7.4C42.4 36.3 44 30.9 44 24.5z" />
        <path fill="#34A853" d="M24 45c6 0 11.1-2 14.8-5.4l-7.4-5.5c-2 1.4-4.6 2.2-7.4 2.2-5.7 0-10.6-3.9-12.3-9.1H4v5.7C7.7 40.2 15.3 45 24 45z" />
        <path fill="#FBBC05" d="M11.7 27.2c-.4-1.3-.7-2.7-.7-4.2s.3-2.9.7-4.2v-5.7H4C2.4 16.2 1.5 19.5 1.5 23s.9 6.8 2.5 9.9l7.7-5.7z" />
        <path fill="#EA4335" d="M24 9.7c3.3 0 6.2 1.1 8.5 3.3l6.4-6.4C35.1 3 30 1 24 1 15.3 1 7.7 5.8 4 13.1l7.7 5.7C13.4 13.6 18.3 9.7 24 9.7z" />
      </svg>
      {t('login.google')}
    </button>
  );
}
