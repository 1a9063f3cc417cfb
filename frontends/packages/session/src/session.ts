// What the app does with a session: restore it at start, sign in with a token, refetch the user, log out.
import type { UserOk, WishlistOk } from './api-types';
import { authorizedFetch, readJson } from './authorized-fetch';
import { ANONYMOUS, getSession, setSession } from './store';
import { clearStorageForLogout, dropToken, storedToken, storeToken } from './token';

let started = false;

/** Called once by the shell at boot: a stored token is checked with GET /api/user. */
export function startSession(): Promise<void> {
  if (started) return Promise.resolve();
  started = true;
  return refetchUser();
}

/**
 * Reads the token from storage (another window, the sign-in popup, may have just written it) and
 * loads the user. A failed fetch leaves the visitor logged out and drops the token.
 */
export async function refetchUser(): Promise<void> {
  const token = storedToken();
  if (!token) {
    setSession(ANONYMOUS);
    return;
  }
  if (getSession().status !== 'authenticated') setSession((s) => ({ ...s, status: 'restoring', token }));
  try {
    const response = await authorizedFetch('/api/user', {}, token);
    const body = response.ok ? await readJson<UserOk>(response) : null;
    if (!body || body.status !== 'success' || !body.user) throw new Error(`GET /api/user answered ${response.status}`);
    setSession((s) => ({ ...s, status: 'authenticated', token, user: body.user }));
  } catch (error) {
    console.error('[marque] the session could not be restored', error);
    dropToken();
    setSession(ANONYMOUS);
    return;
  }
  await loadWishlist();
}

/** Signs in with a token the server gave (OTP verified, email login, sign-in landing). */
export function login(token: string): Promise<void> {
  storeToken(token);
  return refetchUser();
}

function goHome() {
  if (typeof window === 'undefined' || window.location.pathname === '/') return;
  window.history.pushState(null, '', '/');
  // The router follows history events; popstate is the one every router listens to.
  window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
}

/** Clears local storage, tells the server (DELETE /api/logout), forgets the user and goes home. */
export async function logout(): Promise<void> {
  const token = getSession().token ?? storedToken();
  clearStorageForLogout();
  setSession(ANONYMOUS);
  goHome();
  if (!token) return;
  try {
    await authorizedFetch('/api/logout', { method: 'DELETE' }, token);
  } catch (error) {
    // The token is gone here either way; the server forgets it when it expires.
    console.error('[marque] logout could not reach the server', error);
  }
}

/** Loads the ids of the wishlist's products; failures are only logged (the specification). */
export async function loadWishlist(): Promise<void> {
  const { user } = getSession();
  if (!user) return;
  try {
    const response = await authorizedFetch(`/api/get/wishlist/?user=${encodeURIComponent(user._id)}`);
    const body = response.ok ? await readJson<WishlistOk>(response) : null;
    if (!body || body.status !== 'success') throw new Error(`GET /api/get/wishlist answered ${response.status}`);
    setWishlist(body.result.map((entry) => entry._id));
  } catch (error) {
    console.error('[marque] the wishlist could not be loaded', error);
  }
}

export function setWishlist(ids: Iterable<string>) {
  setSession((s) => ({ ...s, wishlist: new Set(ids) }));
}

/** Marks one product as in the wishlist or not, after the server agreed. */
export function setWished(productId: string, wished: boolean) {
  setSession((s) => {
    const next = new Set(s.wishlist);
    if (wished) next.add(productId);
    else next.delete(productId);
    return { ...s, wishlist: next };
  });
}

/** For tests: forget that the session was started. */
export function resetStarted() {
  started = false;
}
