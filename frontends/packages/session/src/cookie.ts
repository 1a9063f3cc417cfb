// The session's token also kept in a first-party cookie, which only the server's page handler reads: it then
// writes the signed-in customer's first answers into the page it serves (apps/storefront/src/signed_in.rs). The
// cookie is never a credential of the API (calls carry the stored token as `Authorization: Bearer`), so a request
// another site makes the browser send with it can do nothing. Plain code, no shared imports (the shell's entry uses it).

export const SESSION_COOKIE = 'marque_session';

/** How long the server keeps a session (30 days), so the cookie does not outlive it by much. */
const SESSION_SECONDS = 30 * 24 * 60 * 60;

function attributes(maxAge: number): string {
  const secure = typeof location !== 'undefined' && location.protocol === 'https:' ? '; Secure' : '';
  return `; Path=/; SameSite=Lax; Max-Age=${maxAge}${secure}`;
}

/** The token the cookie carries now, if any. */
export function sessionCookie(): string | null {
  if (typeof document === 'undefined') return null;
  for (const pair of document.cookie.split(';')) {
    const [name, ...value] = pair.trim().split('=');
    if (name === SESSION_COOKIE) return decodeURIComponent(value.join('=')) || null;
  }
  return null;
}

/** Sets the cookie to `token` (tokens are base64url: nothing to escape), unless it already carries it. */
export function keepSessionCookie(token: string) {
  if (typeof document === 'undefined' || sessionCookie() === token) return;
  document.cookie = `${SESSION_COOKIE}=${encodeURIComponent(token)}${attributes(SESSION_SECONDS)}`;
}

/** Removes the cookie: the next page is served as to a visitor. */
export function clearSessionCookie() {
  if (typeof document === 'undefined' || sessionCookie() === null) return;
  document.cookie = `${SESSION_COOKIE}=${attributes(0)}`;
}
