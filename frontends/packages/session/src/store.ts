// The session's state and its only writers. One instance per page (the package is a federation
// singleton), so the header, the login page and every heart agree on who is signed in.
import type { User } from '@marque/api-client';

export type SessionStatus = 'restoring' | 'anonymous' | 'authenticated';

export type SessionState = {
  status: SessionStatus;
  token: string | null;
  user: User | null;
  /** Ids of the products in the customer's wishlist. */
  wishlist: ReadonlySet<string>;
};

export const ANONYMOUS: SessionState = { status: 'anonymous', token: null, user: null, wishlist: new Set() };

let state: SessionState = ANONYMOUS;
const listeners = new Set<() => void>();

export function getSession(): SessionState {
  return state;
}

export function setSession(next: SessionState | ((current: SessionState) => SessionState)) {
  state = typeof next === 'function' ? next(state) : next;
  for (const listener of listeners) listener();
}

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
