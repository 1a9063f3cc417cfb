import { failed } from '@marque/api-client/testing';
import { describe, expect, it } from 'vitest';
import { adminServer, signInStaff } from '../../test/server';
import { getStaffSession } from '../session/staff-session';
import { STAFF_TOKEN_KEY } from '../session/token';
import { adminCall, urlOf } from './calls';

describe('admin calls', () => {
  it('carry the staff token as a bearer and the client validation header', async () => {
    const meta = document.createElement('meta');
    meta.name = 'marque-client-validation';
    meta.content = 'cv-123';
    document.head.append(meta);
    const server = adminServer({ 'GET /api/admin/products': () => ({ results: [], pages: 0, total: 0 }) });
    await signInStaff('tok-1');
    const answer = await adminCall('GET /api/admin/products', { query: { page: 2, size: 20, q: '' } });
    meta.remove();
    expect(answer.ok).toBe(true);
    const call = server.calls.find((c) => c.path.startsWith('/api/admin/products'));
    expect(call?.path).toBe('/api/admin/products?page=2&size=20');
    expect(call?.headers.get('authorization')).toBe('Bearer tok-1');
    expect(call?.headers.get('x-client-validation')).toBe('cv-123');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('end the staff session on a 401, but not on a refused sign-in', async () => {
    adminServer({
      'GET /api/admin/audit': () => failed(401, 'Please sign in to the back office.', 'staff.login_required'),
      'POST /api/admin/login': () => failed(401, 'The email, password or authenticator code is wrong.', 'staff.login_failed'),
    });
    await signInStaff();
    const login = await adminCall('POST /api/admin/login', { body: { email: 'a@b.in', password: 'x', totp: '123456' } });
    expect(login).toMatchObject({ ok: false, status: 401, code: 'staff.login_failed' });
    expect(getStaffSession().status).toBe('signed-in');
    const audit = await adminCall('GET /api/admin/audit');
    expect(audit).toMatchObject({ ok: false, status: 401, code: 'staff.login_required' });
    expect(getStaffSession().status).toBe('signed-out');
    expect(localStorage.getItem(STAFF_TOKEN_KEY)).toBeNull();
  });

  it('send no bearer on set-up and sign-in', async () => {
    const server = adminServer({ 'POST /api/admin/setup': () => ({ totpUri: 'otpauth://totp/x?secret=ABC', secret: 'ABC' }) });
    localStorage.setItem(STAFF_TOKEN_KEY, 'old');
    await adminCall('POST /api/admin/setup', { body: { code: 'c', password: 'p' } });
    expect(server.calls[0]?.headers.get('authorization')).toBeNull();
    expect(server.calls[0]?.body).toEqual({ code: 'c', password: 'p' });
  });

  it('fill path parameters and leave empty query values out', () => {
    expect(urlOf('GET /api/admin/products/{id}/stock', { path: { id: 'a/b' }, query: { page: 1, q: '', x: null } })).toBe(
      '/api/admin/products/a%2Fb/stock?page=1',
    );
  });
});
