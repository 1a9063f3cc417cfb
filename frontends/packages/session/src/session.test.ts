import { failed, fakeServer, type FakeServer } from '@marque/api-client/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startEarlyUserCheck, takeEarlyUserCheck } from './early';
import { getSession, logout, startSession } from './index';
import { resetSession, TEST_USER } from './testing';

let server: FakeServer | null = null;
beforeEach(() => resetSession());
afterEach(() => {
  server?.restore();
  server = null;
  delete window.__MARQUE_CLIENT_VALIDATION__;
});

describe('the session at start', () => {
  it('restores a stored token: the user and the wishlist are loaded with both headers', async () => {
    window.__MARQUE_CLIENT_VALIDATION__ = 'front-42';
    localStorage.setItem('token', 'good');
    server = fakeServer(
      {},
      {
        'GET /api/user': () => ({ status: 'success', user: TEST_USER }),
        'GET /api/get/wishlist': () => ({
          status: 'success',
          result: [{ _id: 'p1', name: 'Pump', quantity: 1, producttype: 'new', price: 10, image: '', user_id: 'u1' }],
        }),
      },
    );
    await startSession();
    const session = getSession();
    expect(session.status).toBe('authenticated');
    expect(session.user?.name).toBe('Asha Verma');
    expect([...session.wishlist]).toEqual(['p1']);
    const userCall = server.calls.find((c) => c.path === '/api/user');
    expect(userCall?.headers.get('authorization')).toBe('Bearer good');
    expect(userCall?.headers.get('x-client-validation')).toBe('front-42');
    expect(server.requests).toContain('/api/get/wishlist/?user=u1');
  });

  it("takes the shell entry's early check of the same token instead of asking again", async () => {
    window.__MARQUE_CLIENT_VALIDATION__ = 'front-42';
    localStorage.setItem('token', 'good');
    server = fakeServer({}, {
      'GET /api/user': () => ({ status: 'success', user: TEST_USER }),
      'GET /api/get/wishlist': () => ({ status: 'success', result: [] }),
    });
    startEarlyUserCheck();
    await vi.waitFor(() => expect(server?.calls.filter((c) => c.path === '/api/user')).toHaveLength(1));
    const early = server.calls.filter((c) => c.path === '/api/user');
    expect(early[0]?.headers.get('authorization')).toBe('Bearer good');
    expect(early[0]?.headers.get('x-client-validation')).toBe('front-42');
    await startSession();
    expect(getSession().user?.name).toBe('Asha Verma');
    expect(server.calls.filter((c) => c.path === '/api/user')).toHaveLength(1);
  });

  it('asks again when the early check was made with another token, and hands an early answer out once', async () => {
    localStorage.setItem('token', 'old');
    server = fakeServer({}, {
      'GET /api/user': () => ({ status: 'success', user: TEST_USER }),
      'GET /api/get/wishlist': () => ({ status: 'success', result: [] }),
    });
    startEarlyUserCheck();
    localStorage.setItem('token', 'good');
    await startSession();
    const calls = server.calls.filter((c) => c.path === '/api/user');
    expect(calls.map((c) => c.headers.get('authorization'))).toEqual(['Bearer old', 'Bearer good']);
    expect(takeEarlyUserCheck('old')).toBeUndefined();
  });

  it('leaves the visitor logged out and drops the token when the user cannot be fetched', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    localStorage.setItem('token', 'stale');
    server = fakeServer({}, { 'GET /api/user': () => failed(401, 'Unauthorized') });
    await startSession();
    expect(getSession().status).toBe('anonymous');
    expect(getSession().user).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('without a token asks nothing and is logged out', async () => {
    server = fakeServer({});
    await startSession();
    expect(getSession().status).toBe('anonymous');
    expect(server.requests).toEqual([]);
  });
});

describe('logout', () => {
  it('clears local storage but the device preferences, calls DELETE /api/logout and goes home', async () => {
    localStorage.setItem('token', 'good');
    localStorage.setItem('products', '[]');
    localStorage.setItem('language', 'hi');
    server = fakeServer(
      {},
      {
        'GET /api/user': () => ({ status: 'success', user: TEST_USER }),
        'GET /api/get/wishlist': () => ({ status: 'success', result: [] }),
        'DELETE /api/logout': () => ({ status: 'success', message: 'success' }),
      },
    );
    await startSession();
    window.history.replaceState(null, '', '/profile');
    await logout();
    expect(getSession().status).toBe('anonymous');
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('products')).toBeNull();
    expect(localStorage.getItem('language')).toBe('hi');
    const call = server.calls.find((c) => c.method === 'DELETE');
    expect(call?.path).toBe('/api/logout');
    expect(call?.headers.get('authorization')).toBe('Bearer good');
    expect(window.location.pathname).toBe('/');
    localStorage.removeItem('language');
  });
});
