import { fakeServer, type FakeServer } from '@marque/api-client/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionCookie } from './cookie';
import { startEarlyUserCheck } from './early';
import { getSession, login, logout, refetchUser, startSession, takePageAnswer, takeStartWishlistNow } from './index';
import { SESSION_DATA_ELEMENT_ID } from './page-answers';
import { embedSessionAnswers, resetSession, TEST_USER } from './testing';

const PUMP = { _id: 'p1', name: 'Pump', quantity: 1, producttype: 'new', price: 10, image: '', user_id: 'u1' };
const ORDERS = { status: 'success', result: [], page: 1, pages: 0 };

let server: FakeServer | null = null;

function networkAnswers() {
  return fakeServer(
    {},
    {
      'GET /api/user': () => ({ status: 'success', user: { ...TEST_USER, name: 'From the network' } }),
      'GET /api/get/wishlist': () => ({ status: 'success', result: [] }),
      'DELETE /api/logout': () => ({ status: 'success', message: 'success' }),
    },
  );
}

/** The page as the server writes it for the customer whose token is `token`. */
async function embedForToken(token: string) {
  await embedSessionAnswers(token, [
    { path: '/api/user', query: {}, body: { status: 'success', user: TEST_USER } },
    { path: '/api/get/wishlist/', query: { user: 'u1' }, body: { status: 'success', result: [PUMP] } },
    { path: '/api/get/orderhistory/u1', query: { page: '1' }, body: ORDERS },
  ]);
}

/** A page opened with `stored` in local storage, the server having written the answers for `embeddedFor`. */
async function openPage(stored: string, embeddedFor: string): Promise<FakeServer> {
  localStorage.setItem('token', stored);
  await embedForToken(embeddedFor);
  const network = networkAnswers();
  server = network;
  startEarlyUserCheck();
  await startSession();
  return network;
}

function cookieOf(name: string): string | undefined {
  return document.cookie
    .split(';')
    .map((pair) => pair.trim())
    .find((pair) => pair.startsWith(`${name}=`));
}

beforeEach(() => resetSession());
afterEach(() => {
  server?.restore();
  server = null;
  document.getElementById(SESSION_DATA_ELEMENT_ID)?.remove();
});

describe('the session cookie', () => {
  it('is set when a token is stored and cleared on logout', async () => {
    server = networkAnswers();
    await login('fresh');
    expect(cookieOf('marque_session')).toBe('marque_session=fresh');
    await logout();
    expect(cookieOf('marque_session')).toBeUndefined();
  });

  it('is set at start for a token stored before it existed, and cleared when the token fails its check', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    localStorage.setItem('token', 'stale');
    server = fakeServer({}, { 'GET /api/user': () => new Response('{}', { status: 401 }) });
    startEarlyUserCheck();
    expect(sessionCookie()).toBe('stale');
    await startSession();
    expect(getSession().status).toBe('anonymous');
    expect(sessionCookie()).toBeNull();
  });

  it('is cleared when no token is stored', () => {
    document.cookie = 'marque_session=left-over; Path=/';
    startEarlyUserCheck();
    expect(sessionCookie()).toBeNull();
  });
});

describe("the customer's answers written into the page", () => {
  it('are used for the stored token: no call is made, the wishlist and the page draw at once, each answer once', async () => {
    const network = await openPage('good', 'good');
    expect(network.requests).toEqual([]);
    expect(getSession().user?.name).toBe('Asha Verma');
    expect([...getSession().wishlist]).toEqual(['p1']);
    expect(takeStartWishlistNow('u1')).toEqual([PUMP]);
    expect(takeStartWishlistNow('u1')).toBeUndefined();
    expect(takePageAnswer('/api/get/orderhistory/u1?page=2')).toBeUndefined();
    expect(takePageAnswer('/api/get/orderhistory/u1?page=1')).toEqual(ORDERS);
    expect(takePageAnswer('/api/get/orderhistory/u1?page=1')).toBeUndefined();
  });

  it("are another token's when the session changed since the page was asked: everything is asked again", async () => {
    const network = await openPage('signed-in-since', 'before');
    expect(getSession().user?.name).toBe('From the network');
    expect(network.calls.find((c) => c.path === '/api/user')?.headers.get('authorization')).toBe('Bearer signed-in-since');
    expect(network.requests).toContain('/api/get/wishlist/?user=u1');
    expect(takeStartWishlistNow('u1')).toBeUndefined();
    expect(takePageAnswer('/api/get/orderhistory/u1?page=1')).toBeUndefined();
  });

  it('are forgotten after a login, a logout or a later check of the user', async () => {
    for (const after of [() => login('other'), () => logout(), () => refetchUser()]) {
      resetSession();
      const network = await openPage('good', 'good');
      await after();
      expect(takePageAnswer('/api/get/orderhistory/u1?page=1')).toBeUndefined();
      network.restore();
      document.getElementById(SESSION_DATA_ELEMENT_ID)?.remove();
    }
  });

  it('are ignored without the early check, and when the page holds none', async () => {
    localStorage.setItem('token', 'good');
    await embedForToken('good');
    server = networkAnswers();
    await startSession();
    expect(server.requests).toContain('/api/user');
    expect(takePageAnswer('/api/get/orderhistory/u1?page=1')).toBeUndefined();
  });
});
