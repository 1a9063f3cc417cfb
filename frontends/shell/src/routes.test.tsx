import { loadRemote } from '@module-federation/runtime';
import { render, screen } from '@testing-library/react';
import { embedTestShop } from '@marque/ui/testing';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from './App';
import { pageFor, pageLoadPath, remotePageAt, ROUTES } from './routes';

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
  it('draws a preloaded page at the first render, without its loading message', async () => {
    // Fresh modules: the slots remember what they loaded in the other tests, which would hide the difference.
    vi.resetModules();
    const { App } = await import('./App');
    const { preloadRemote } = await import('./lib/remotes/RemoteSlot');
    window.history.replaceState(null, '', '/brand/bmw');
    await preloadRemote('catalog/Brand');
    expect(remote).toHaveBeenCalledWith('catalog/Brand');
    render(<App />);
    // Synchronously: no Suspense fallback in between.
    expect(screen.getByRole('heading', { level: 1, name: 'Remote page catalog/Brand' })).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('asks for the header pieces only after the first paint, so they never delay it', async () => {
    vi.resetModules();
    const { App } = await import('./App');
    window.history.replaceState(null, '', '/about');
    render(<App />);
    expect(screen.getByRole('heading', { level: 1 })).toBeTruthy();
    expect(remote).not.toHaveBeenCalledWith('checkout/CartButton');
    await vi.waitFor(() => expect(remote).toHaveBeenCalledWith('checkout/CartButton'));
  });

  it('names only pages that exist', () => {
    expect(ROUTES.length).toBeGreaterThan(0);
    for (const { page } of ROUTES) expect(pageFor(page), page).not.toBeNull();
    expect(pageFor('shell/Nothing')).toBeNull();
    expect(pageFor('checkout/')).toBeNull();
  });

  // Several paths may share one remote module (every /admin page is `admin/Admin`): the slot keeps a module it loaded,
  // so the remote is asked for it at the first of them.
  const asked = new Set<string>();
  it.each(ROUTES.map((route) => [route.path, route.page]))('shows %s (%s), not Page not found', async (path, page) => {
    window.history.replaceState(null, '', addressOf(path));
    render(<App />);
    if (!page.startsWith('shell/')) {
      expect(await screen.findByRole('heading', { level: 1, name: `Remote page ${page}` })).toBeTruthy();
      if (!asked.has(page)) expect(remote).toHaveBeenCalledWith(page);
      asked.add(page);
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

  it('names the remote module that draws an address, as the switch matches it', () => {
    expect(remotePageAt('/')).toBe('catalog/Home');
    expect(remotePageAt('/subcategory/brakes/brake-disc')).toBe('catalog/Subcategory');
    expect(remotePageAt('/orderhistory/render_invoice')).toBe('account/RenderInvoice');
    expect(remotePageAt('/about')).toBeUndefined();
    expect(remotePageAt('/orderhistory/other')).toBeUndefined();
  });

  it('lands a page load of the order review, whose state lives only in the tab, on the address step', () => {
    expect(pageLoadPath('/review')).toBe('/address');
    for (const path of ['/address', '/', '/brand/bmw', '/orderhistory/other']) expect(pageLoadPath(path)).toBe(path);
    for (const { pageLoadOpens } of ROUTES) if (pageLoadOpens) expect(pageLoadPath(pageLoadOpens)).toBe(pageLoadOpens);
  });

});
