// The sign-in token in local storage under `token` (the specification's key), read and written safely, and
// mirrored in the session cookie the server reads to prepare a page (cookie.ts).
import { clearSessionCookie, keepSessionCookie } from './cookie';

export const TOKEN_KEY = 'token';

/** Device preferences that outlive a logout: they are the visitor's, not the account's. */
const KEPT_ON_LOGOUT = ['language', 'announcementClosed', 'listView'];

export function storedToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY) || null;
  } catch {
    return null;
  }
}

export function storeToken(token: string) {
  try {
    localStorage.setItem(TOKEN_KEY, token);
  } catch {
    // A private window may refuse storage: the session then lasts for this page only.
  }
  keepSessionCookie(token);
}

export function dropToken() {
  try {
    localStorage.removeItem(TOKEN_KEY);
  } catch {
    // Nothing stored, nothing to drop.
  }
  clearSessionCookie();
}

/** Logout clears local storage (the specification), keeping only the device preferences above. */
export function clearStorageForLogout() {
  clearSessionCookie();
  try {
    const kept = KEPT_ON_LOGOUT.flatMap((key) => {
      const value = localStorage.getItem(key);
      return value === null ? [] : [[key, value] as const];
    });
    localStorage.clear();
    for (const [key, value] of kept) localStorage.setItem(key, value);
    // What other tabs hear of a clear(), told to this one too: state kept beside storage (the cart) follows it.
    window.dispatchEvent(new StorageEvent('storage', { key: null, storageArea: localStorage }));
  } catch {
    // Storage unavailable: nothing was kept there.
  }
}
