// The staff token in local storage under `staffToken`, apart from the customer's `token`: signing in to the
// back office never signs a customer in or out, and the other way round.
export const STAFF_TOKEN_KEY = 'staffToken';

/** The token for this page when storage refuses it (a private window). */
let kept: string | null = null;

export function storedStaffToken(): string | null {
  try {
    return localStorage.getItem(STAFF_TOKEN_KEY) || kept;
  } catch {
    return kept;
  }
}

export function storeStaffToken(token: string) {
  kept = token;
  try {
    localStorage.setItem(STAFF_TOKEN_KEY, token);
  } catch {
    // A private window may refuse storage: the session then lasts for this page only.
  }
}

export function dropStaffToken() {
  kept = null;
  try {
    localStorage.removeItem(STAFF_TOKEN_KEY);
  } catch {
    // Nothing stored, nothing to drop.
  }
}
