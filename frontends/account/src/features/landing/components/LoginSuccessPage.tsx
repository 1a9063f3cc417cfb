// /login/success?token=…: the sign-in popup's landing. The query's `token` is a one-time code, not a session:
// the page takes it out of the address at once (history, screenshots), exchanges it for the session
// (POST /api/google/exchange, only this browser can), stores that under `token` and closes the popup after a
// second; the opener then refetches the user. A code that is refused shows the failure landing's text.
import { useT } from '@marque/i18n';
import { TOKEN_KEY } from '@marque/session';
import { useDocumentTitle } from '@marque/ui';
import { useEffect, useState } from 'react';
import { exchangeSignInCode } from '../api/exchange-sign-in-code';

export const LANDING_CLOSE_MS = 1000;

/** Marks, in the history entry, that this landing already took its code out of the address. */
const LANDED = 'marqueLanded';

/** The exchange of this page load's code: a remount (taking the code out of the address re-renders) awaits the same one. */
let exchange: Promise<boolean> | null = null;

/**
 * Reads the code and removes it from the address, before the first paint, starting its exchange. Taking it out of
 * the address re-renders the route, which may mount this page afresh: that second mount finds the mark in the
 * history entry and the exchange already started.
 */
function takeCode(): Promise<boolean> | null {
  const url = new URL(window.location.href);
  const code = url.searchParams.get('token');
  if (code === null) {
    const landed = (window.history.state as Record<string, unknown> | null)?.[LANDED] === true;
    return landed ? exchange : null;
  }
  url.searchParams.delete('token');
  const state = { ...((window.history.state as Record<string, unknown> | null) ?? {}), [LANDED]: true };
  window.history.replaceState(state, '', url.pathname + url.search + url.hash);
  exchange = code ? exchangeSignInCode(code).then((token) => (token ? storeToken(token) : false)) : null;
  return exchange;
}

function storeToken(token: string): boolean {
  try {
    localStorage.setItem(TOKEN_KEY, token);
  } catch {
    // Storage refused: the opener stays logged out, as after a failed sign-in.
  }
  return true;
}

type Landing = 'exchanging' | 'signed-in' | 'refused';

export function LoginSuccessPage() {
  const t = useT('account');
  useDocumentTitle(t('landing.success'));
  const [pending] = useState(takeCode);
  const [landing, setLanding] = useState<Landing>('exchanging');

  useEffect(() => {
    if (!pending) {
      console.log('No token');
      return;
    }
    let live = true;
    void pending.then((ok) => {
      if (live) setLanding(ok ? 'signed-in' : 'refused');
    });
    return () => {
      live = false;
    };
  }, [pending]);

  useEffect(() => {
    if (landing === 'exchanging') return;
    const timer = setTimeout(() => window.close(), LANDING_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [landing]);

  if (!pending || landing === 'exchanging') return null;
  return landing === 'signed-in' ? (
    <section className="account-page landing">
      <h1>{t('landing.success')}</h1>
    </section>
  ) : (
    <section className="account-page landing">
      <h1>{t('landing.failure_title')}</h1>
      <p role="alert">{t('landing.failure')}</p>
    </section>
  );
}
