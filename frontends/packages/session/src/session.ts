// What the app does with a session: restore it at start, sign in with a token, refetch the user, log out.
import type { Answer, WishlistEntry } from '@marque/api-client';
import { authorizedFetch, readJson } from './authorized-fetch';
import { clearSessionCookie, keepSessionCookie } from './cookie';
import { takeEarlyUserCheck } from './early';
import { type PageAnswer, takeFrom } from './page-answers';
import { ANONYMOUS, getSession, setSession } from './store';
import { clearStorageForLogout, dropToken, storedToken, storeToken } from './token';

let started = false;
/** The entries the session loaded at start, for the wishlist page's first draw (handed out once, see below); `now`
 * when they were known at once (written into the page). */
let startWishlist: { userId: string; entries: Promise<WishlistEntry[] | null>; now?: WishlistEntry[] } | null = null;
/** The signed-in customer's answers the server wrote into this page, checked to be the stored token's; only for
 * this page load and this session (forgotten on any later check, login or logout). */
let pageAnswers: { token: string; answers: PageAnswer[] } | null = null;

/** Called once by the shell at boot: a stored token is checked with GET /api/user (the answer to the shell entry's
 * early check when it asked with the same token). */
export function startSession(): Promise<void> {
  if (started) return Promise.resolve();
  started = true;
  return checkUser(true);
}

/**
 * Reads the token from storage (another window, the sign-in popup, may have just written it) and
 * loads the user. A failed fetch leaves the visitor logged out and drops the token.
 */
export function refetchUser(): Promise<void> {
  return checkUser(false);
}

async function checkUser(atStart: boolean): Promise<void> {
  pageAnswers = null;
  const token = storedToken();
  if (!token) {
    clearSessionCookie();
    setSession(ANONYMOUS);
    return;
  }
  if (getSession().status !== 'authenticated') setSession((s) => ({ ...s, status: 'restoring', token }));
  try {
    const early = atStart ? takeEarlyUserCheck(token) : undefined;
    const response = await (early?.response ?? authorizedFetch('/api/user', {}, token));
    const body = response.ok ? await readJson<Answer<'GET /api/user'>>(response) : null;
    if (!body || body.status !== 'success' || !body.user) throw new Error(`GET /api/user answered ${response.status}`);
    const answers = early ? await early.answers : null;
    if (answers && storedToken() === token) pageAnswers = { token, answers };
    keepSessionCookie(token);
    setSession((s) => ({ ...s, status: 'authenticated', token, user: body.user }));
  } catch (error) {
    console.error('[marque] the session could not be restored', error);
    dropToken();
    setSession(ANONYMOUS);
    return;
  }
  await loadWishlistIds(atStart);
}

/**
 * The body the server wrote into this page for the signed-in customer's GET of `url` (as the caller would fetch
 * it), at once and once; undefined when the page has none for it, or the session changed since the page opened.
 * A page draws its first render from it, as catalog pages do from `initialBody`.
 */
export function takePageAnswer<T>(url: string): T | undefined {
  if (!pageAnswers || pageAnswers.token !== getSession().token) return undefined;
  return takeFrom(pageAnswers.answers, url)?.body as T | undefined;
}

/** Signs in with a token the server gave (OTP verified, email login, sign-in landing). */
export function login(token: string): Promise<void> {
  startWishlist = null;
  pageAnswers = null;
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
  startWishlist = null;
  pageAnswers = null;
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
export function loadWishlist(): Promise<void> {
  return loadWishlistIds(false);
}

async function loadWishlistIds(atStart: boolean): Promise<void> {
  const { user } = getSession();
  if (!user) return;
  const embedded = atStart ? takePageAnswer<Answer<'GET /api/get/wishlist'>>(wishlistUrl(user._id)) : undefined;
  const now = embedded?.status === 'success' ? embedded.result : undefined;
  const entries = now ? Promise.resolve(now) : fetchWishlist(user._id);
  if (atStart) startWishlist = { userId: user._id, entries, now };
  const loaded = await entries;
  if (loaded) setWishlist(loaded.map((entry) => entry._id));
}

/** The session's wishlist call (the server writes its answer into a signed-in customer's page: keep them alike). */
function wishlistUrl(userId: string): string {
  return `/api/get/wishlist/?user=${encodeURIComponent(userId)}`;
}

async function fetchWishlist(userId: string): Promise<WishlistEntry[] | null> {
  try {
    const response = await authorizedFetch(wishlistUrl(userId));
    const body = response.ok ? await readJson<Answer<'GET /api/get/wishlist'>>(response) : null;
    if (!body || body.status !== 'success') throw new Error(`GET /api/get/wishlist answered ${response.status}`);
    return body.result;
  } catch (error) {
    console.error('[marque] the wishlist could not be loaded', error);
    return null;
  }
}

/**
 * The wishlist entries the session asked for when the page opened, if they are `userId`'s: the wishlist page's
 * first draw uses them rather than asking the same question again. Handed out once; null when that load failed.
 */
export function takeStartWishlist(userId: string): Promise<WishlistEntry[] | null> | undefined {
  const taken = startWishlist;
  startWishlist = null;
  return taken?.userId === userId ? taken.entries : undefined;
}

/**
 * The start wishlist's entries if they were known at once (the server wrote them into the page), for the wishlist
 * page's first render; handed out once, like `takeStartWishlist`, and undefined otherwise (nothing is taken then).
 */
export function takeStartWishlistNow(userId: string): WishlistEntry[] | undefined {
  if (!startWishlist?.now || startWishlist.userId !== userId) return undefined;
  const { now } = startWishlist;
  startWishlist = null;
  return now;
}

export function setWishlist(ids: Iterable<string>) {
  setSession((s) => ({ ...s, wishlist: new Set(ids) }));
}

/** Marks one product as in the wishlist or not, after the server agreed. */
export function setWished(productId: string, wished: boolean) {
  // The wishlist changed since the page opened: what the session loaded then is no longer the answer.
  startWishlist = null;
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
  startWishlist = null;
  pageAnswers = null;
}
