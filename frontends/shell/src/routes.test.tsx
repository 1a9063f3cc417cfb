import { loadRemote } from '@module-federation/runtime';
import { render, screen } from '@testing-library/react';
import { embedTestShop } from '@marque/ui/testing';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from './App';
import { pageFor, ROUTES } from './routes';

vi.mock('@module-federation/runtime', () => ({ loadRemote: vi.fn(), registerRemotes: vi.fn() }));
const remote = vi.mocked(loadRemote);

/** The header's pieces (cart icon, account menu) and the cart panel: remotes too, kept empty here. */
const HEADER_PIECES = ['account/HeaderMenu', 'checkout/CartButton', 'checkout/CartPanel'];

/** An address the route pattern matches: each `:param` filled in. */
const addressOf = (path: string) => path.replace(/:\w+/g, 'sample');

beforeEach(() => {
  embedTestShop();
  remote.mockReset();
  // The header's pieces stay empty here, so each page has one h1.
  remote.mockImplementation(async (id: string) =>
    HEADER_PIECES.includes(id) ? { default: () => null } : { default: () => <h1>Remote page {id}</h1> },
  );
  vi.spyOn(globalThis, 'fetch').mockImplementation(async () =>
    Response.json({ catalog: '/remotes/catalog/mf-manifest.json' }),
  );
});

describe('the route table', () => {
  it('names only pages that exist', () => {
    expect(ROUTES.length).toBeGreaterThan(0);
    for (const { page } of ROUTES) expect(pageFor(page), page).not.toBeNull();
    expect(pageFor('shell/Nothing')).toBeNull();
    expect(pageFor('checkout/')).toBeNull();
  });

  it.each(ROUTES.map((route) => [route.path, route.page]))('shows %s (%s), not Page not found', async (path, page) => {
    window.history.replaceState(null, '', addressOf(path));
    render(<App />);
    if (!page.startsWith('shell/')) {
      expect(await screen.findByRole('heading', { level: 1, name: `Remote page ${page}` })).toBeTruthy();
      expect(remote).toHaveBeenCalledWith(page);
    } else {
      expect(screen.getByRole('heading', { level: 1 })).toBeTruthy();
    }
    expect(screen.queryByRole('heading', { name: 'Page not found' })).toBeNull();
  });

  it('shows Page not found for an address outside the table, such as /orderhistory/other', () => {
    window.history.replaceState(null, '', '/orderhistory/other');
    render(<App />);
    expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    expect(remote.mock.calls.filter(([id]) => !HEADER_PIECES.includes(id))).toEqual([]);
  });
});
