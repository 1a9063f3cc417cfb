// The back-office API faked for these tests, each call typed as the admin client types it (the document's shape,
// or the provisional one until the call is in the document); a signed-in owner unless told otherwise.
import { fakeServer, type FakeCalls, type FakeServer } from '@marque/api-client/testing';
import { afterEach } from 'vitest';
import type { AdminAnswer, AdminBody, AdminCall } from '../lib/api/calls';
import type { Paged, StaffMe } from '../lib/api/provisional';
import { getStaffSession, restoreStaffSession } from '../lib/session/staff-session';
import { STAFF_TOKEN_KEY } from '../lib/session/token';

type Handler<C extends AdminCall> = (request: {
  url: URL;
  params: Record<string, string>;
  request: Request;
  body: AdminBody<C>;
}) => AdminAnswer<C> | Response | Promise<AdminAnswer<C> | Response>;

export type AdminFakeCalls = { [C in AdminCall]?: Handler<C> };

export const OWNER: StaffMe = {
  _id: 's-owner',
  email: 'owner@example.in',
  name: 'Meera Owner',
  role: 'owner',
  areas: ['dashboard', 'products', 'categories', 'brands', 'photos', 'stock', 'imports', 'orders', 'refunds', 'returns', 'grievances', 'customers_read', 'customers', 'offers', 'staff', 'audit', 'sales'],
};
export const CATALOG: StaffMe = {
  _id: 's-catalog',
  email: 'catalog@example.in',
  name: 'Ravi Catalog',
  role: 'catalog',
  areas: ['dashboard', 'products', 'categories', 'brands', 'photos', 'stock', 'imports'],
};

/** One page of `results` as a list call answers. */
export function paged<T>(results: T[], pages = 1, total = results.length): Paged<T> {
  return { results, pages, total };
}

let current: FakeServer | null = null;

afterEach(() => {
  current?.restore();
  current = null;
});

/** Fakes the admin calls (plus `GET /api/admin/me` answering `me`). */
export function adminServer(calls: AdminFakeCalls = {}, me: StaffMe = OWNER): FakeServer {
  current?.restore();
  current = fakeServer({}, { 'GET /api/admin/me': () => me, ...calls } as unknown as FakeCalls);
  return current;
}

/** A stored staff token and the session it restores (the server must answer `GET /api/admin/me`). */
export async function signInStaff(token = 'staff-token') {
  localStorage.setItem(STAFF_TOKEN_KEY, token);
  await restoreStaffSession(true);
  if (getStaffSession().status !== 'signed-in') throw new Error('the fake server did not sign the staff member in');
}
