// The signed-in staff member of this tab: restored from the stored token by `GET /api/admin/me`, set by sign-in,
// ended by sign-out or by any call the server answers 401. Kept outside React so every admin page shares it.
import { useSyncExternalStore } from 'react';
import { adminCall, whenSessionLost } from '../api/calls';
import type { StaffMe } from '../api/types';
import { dropStaffToken, storedStaffToken, storeStaffToken } from './token';

export type StaffSession =
  | { status: 'unknown' }
  | { status: 'signed-out' }
  | { status: 'unavailable' }
  | { status: 'signed-in'; me: StaffMe };

let session: StaffSession = { status: 'unknown' };
let restoring: Promise<void> | null = null;
const listeners = new Set<() => void>();

function set(next: StaffSession) {
  session = next;
  listeners.forEach((listener) => listener());
}

export function getStaffSession(): StaffSession {
  return session;
}

/** Asks who the stored token belongs to (once per page unless told again). */
export function restoreStaffSession(force = false): Promise<void> {
  if (restoring && !force) return restoring;
  restoring = (async () => {
    if (!storedStaffToken()) return set({ status: 'signed-out' });
    const answer = await adminCall('GET /api/admin/me');
    if (answer.ok) set({ status: 'signed-in', me: answer.body });
    else if (answer.status === 401 || answer.status === 403) endStaffSession();
    else set({ status: 'unavailable' });
  })();
  return restoring;
}

/** Keeps the token sign-in answered and learns who it is. */
export async function startStaffSession(token: string): Promise<void> {
  storeStaffToken(token);
  await restoreStaffSession(true);
}

/** Forgets the token here (the server's session is ended by `signOut`). */
export function endStaffSession() {
  dropStaffToken();
  restoring = null;
  set({ status: 'signed-out' });
}

/** Ends the session on the server, then here. */
export async function signOut(): Promise<void> {
  await adminCall('DELETE /api/admin/logout');
  endStaffSession();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function useStaffSession(): StaffSession {
  return useSyncExternalStore(subscribe, getStaffSession, getStaffSession);
}

/** For tests: back to a page that has not asked yet. */
export function resetStaffSession() {
  dropStaffToken();
  restoring = null;
  session = { status: 'unknown' };
}

// A 401 on any call: the session is over (expired, revoked); the layout then shows the sign-in page.
whenSessionLost(endStaffSession);
