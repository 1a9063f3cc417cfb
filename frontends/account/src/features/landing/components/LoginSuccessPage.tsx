// /login/success?token=…: the sign-in popup's landing. Stores the token, takes it out of the address
// bar at once (history, screenshots), and closes the popup after a second; the opener then refetches the user.
import { useT } from '@marque/i18n';
import { TOKEN_KEY } from '@marque/session';
import { useDocumentTitle } from '@marque/ui';
import { useEffect, useState } from 'react';

export const LANDING_CLOSE_MS = 1000;

/** Marks, in the history entry, that this landing already took its token out of the address. */
const LANDED = 'marqueLanded';

/**
 * Reads the token, stores it and removes it from the address, before the first paint. Taking it out of the
 * address re-renders the route, which may mount this page afresh: that second mount finds the mark in the
 * history entry and the token already stored.
 */
function takeToken(): string | null {
  const url = new URL(window.location.href);
  const token = url.searchParams.get('token');
  if (token === null) {
    const landed = (window.history.state as Record<string, unknown> | null)?.[LANDED] === true;
    return landed ? storedToken() : null;
  }
  if (token) {
    try {
      localStorage.setItem(TOKEN_KEY, token);
    } catch {
      // Storage refused: the opener stays logged out, as after a failed sign-in.
    }
  }
  url.searchParams.delete('token');
  const state = { ...((window.history.state as Record<string, unknown> | null) ?? {}), [LANDED]: true };
  window.history.replaceState(state, '', url.pathname + url.search + url.hash);
  return token || null;
}

function storedToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
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
    const timer = setTimeout(() => window.close(), LANDING_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [token]);

  return token ? (
    <section className="account-page landing">
      <h1>{t('landing.success')}</h1>
    </section>
  ) : null;
}
