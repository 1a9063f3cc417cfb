import { getSession } from '@marque/session';
import { embedSessionAnswers, resetSession, signIn, TEST_USER } from '@marque/session/testing';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { accountServer } from '../../../test/server';
import { WishlistPage } from './WishlistPage';

const LONG = 'Mercedes-Benz W213 E-Class front left headlamp assembly LED';
const entries = [
  { _id: 'p1', name: LONG, quantity: 3, producttype: 'new', price: 45000, image: '/media/p1.webp', user_id: 'u1' },
  { _id: 'p2', name: 'BMW F30 oil filter', quantity: 0, producttype: 'old', price: 900, image: '', user_id: 'u1' },
];

beforeEach(() => resetSession());

describe('/wishlist', () => {
  it('sends visitors to /login', async () => {
    window.history.replaceState(null, '', '/wishlist');
    render(<WishlistPage />);
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
  });

  it('shows the empty-state picture when the wishlist is empty', async () => {
    accountServer();
    signIn();
    render(<WishlistPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Your wishlist' })).toBeTruthy();
    expect(await screen.findByText('Your wishlist is empty.')).toBeTruthy();
    expect(document.querySelector('.wishlist-empty svg')).toBeTruthy();
  });

  it('shows each entry with its name cut at 45, stock and price, and removes one', async () => {
    const server = accountServer({
      'GET /api/get/wishlist': () => ({ status: 'success', result: entries }),
      'DELETE /api/remove/wishlist/{productId}': () => ({ status: 'success' }),
    });
    signIn({}, ['p1', 'p2']);
    render(<WishlistPage />);
    const cards = await screen.findAllByRole('article');
    expect(cards).toHaveLength(2);
    const first = within(cards[0]!);
    expect(first.getByRole('link').textContent).toBe(`${LONG.slice(0, 45)}...`);
    expect(first.getByText('Stock: 3')).toBeTruthy();
    expect(cards[0]!.textContent).toContain('45,000');
    expect(within(cards[1]!).getByText('OUT OF STOCK')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Remove BMW F30 oil filter from your wishlist' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(1));
    expect(server.calls.some((c) => c.method === 'DELETE' && c.path === '/api/remove/wishlist/p2')).toBe(true);
    expect([...getSession().wishlist]).toEqual(['p1']);
  });

  it('draws from the wishlist the session loaded as the page opened, without asking again', async () => {
    // Fresh modules, as on a page just opened: the first frame is not painted yet.
    vi.resetModules();
    const { startSession: start } = await import('@marque/session');
    const { WishlistPage: Page } = await import('./WishlistPage');
    const server = accountServer({ 'GET /api/get/wishlist': () => ({ status: 'success', result: entries }) });
    localStorage.setItem('token', 'good');
    await start();
    render(<Page />);
    expect(await screen.findAllByRole('article')).toHaveLength(2);
    expect(server.calls.filter((c) => c.path.startsWith('/api/get/wishlist/'))).toHaveLength(1);
  });

  it('draws the wishlist the server wrote into the page in its first render, asking nothing', async () => {
    vi.resetModules();
    const { startSession: start } = await import('@marque/session');
    const { startEarlyUserCheck } = await import('@marque/session/early');
    const { WishlistPage: Page } = await import('./WishlistPage');
    const server = accountServer();
    localStorage.setItem('token', 'good');
    const remove = await embedSessionAnswers('good', [
      { path: '/api/user', query: {}, body: { status: 'success', user: TEST_USER } },
      { path: '/api/get/wishlist/', query: { user: 'u1' }, body: { status: 'success', result: entries } },
    ]);
    startEarlyUserCheck();
    await start();
    render(<Page />);
    // At once: no loading frame before the entries.
    expect(screen.getAllByRole('article')).toHaveLength(2);
    expect(server.requests).toEqual([]);
    remove();
  });
});
