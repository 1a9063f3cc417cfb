// The back-office API faked for these tests at the HTTP layer, each call's body and answer typed by the API
// document (`@marque/api-client/testing`); a signed-in owner unless told otherwise.
import { fakeServer, type FakeCalls, type FakeServer } from '@marque/api-client/testing';
import { afterEach } from 'vitest';
import type { AdminCall } from '../lib/api/calls';
import type { StaffMe } from '../lib/api/types';
import { getStaffSession, restoreStaffSession } from '../lib/session/staff-session';
import { STAFF_TOKEN_KEY } from '../lib/session/token';
import type { Paged } from '../lib/table/use-list';

/** Fakes of back-office calls, keyed and typed as the document names them. */
export type AdminFakeCalls = Pick<FakeCalls, AdminCall>;

/** The areas `GET /api/admin/me` lists for each role (the server's role table). */
export const OWNER: StaffMe = {
  _id: 's-owner',
  email: 'owner@example.in',
  name: 'Meera Owner',
  role: 'owner',
  areas: ['dashboard', 'products', 'categories', 'brands', 'photos', 'stock', 'imports', 'orders', 'refunds', 'returns', 'grievances', 'customersRead', 'customers', 'offers', 'staff', 'audit', 'sales'],
};
export const CATALOG: StaffMe = {
  _id: 's-catalog',
  email: 'catalog@example.in',
  name: 'Ravi Catalog',
  role: 'catalog',
  areas: ['dashboard', 'products', 'categories', 'brands', 'photos', 'stock', 'imports'],
};
export const FULFILMENT: StaffMe = {
  _id: 's-fulfilment',
  email: 'fulfilment@example.in',
  name: 'Sita Fulfilment',
  role: 'fulfilment',
  areas: ['dashboard', 'orders', 'refunds', 'returns', 'grievances', 'customersRead'],
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
  current = fakeServer({}, { 'GET /api/admin/me': () => me, ...calls });
  return current;
}

/** A stored staff token and the session it restores (the server must answer `GET /api/admin/me`). */
export async function signInStaff(token = 'staff-token') {
  localStorage.setItem(STAFF_TOKEN_KEY, token);
  await restoreStaffSession(true);
  if (getStaffSession().status !== 'signed-in') throw new Error('the fake server did not sign the staff member in');
}
