import type { Product } from '@marque/api-client';
import { failed, fakeServer, type FakeServer } from '@marque/api-client/testing';
import { TITLE_LIMITS, truncateTitle } from '@marque/rules';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { aProduct } from '../../../test/fixtures';
import { SearchPage } from './SearchPage';

let server: FakeServer | undefined;
afterEach(() => server?.restore());
beforeEach(() => localStorage.clear());

const open = (address: string) => window.history.replaceState(null, '', address);

/** A fake search over `catalog`, 2 products a page, the way the server pages its results. */
function searchOver(catalog: Product[]) {
  return fakeServer({
    '/api/get/productBySearch': ({ url }) => {
      const page = Number(url.searchParams.get('page') ?? 1);
      const term = (url.searchParams.get('search') ?? '').toLowerCase();
      const found = catalog.filter((p) => p.name.toLowerCase().includes(term));
      return {
        status: 'success',
        results: found.slice((page - 1) * 2, page * 2),
        pages: Math.ceil(found.length / 2),
        page,
        total: found.length,
      };
    },
  });
}

const discs = [1, 2, 3, 4, 5].map((n) =>
  aProduct({ _id: `disc-${n}`, name: `Brake disc ${n} ventilated front axle for Range Rover Sport L494 3.0 SDV6 HSE Dynamic` }),
);

describe('SearchPage', () => {
  it('shows the term, the products of the page and the page links', async () => {
    server = searchOver(discs);
    open('/search?search=brake%20disc&page=2');
    render(<SearchPage />);

    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Showing results for brake disc');
    const third = await screen.findByRole('link', { name: truncateTitle(discs[2]!.name, TITLE_LIMITS.listingCard) });
    expect(third.getAttribute('href')).toBe('/product?productId=disc-3');
    expect(screen.getAllByRole('article')).toHaveLength(2);

    const pages = screen.getByRole('navigation', { name: 'Pagination' });
    expect(within(pages).getByRole('link', { name: 'Previous' }).getAttribute('href')).toBe(
      '/search?search=brake%20disc&page=1',
    );
    expect(within(pages).getByRole('link', { name: 'Next' }).getAttribute('href')).toBe(
      '/search?search=brake%20disc&page=3',
    );
    await waitFor(() => expect(document.title).toBe('Search results for brake disc - Marque Parts'));
  });

  it('loads the next page when Next is chosen, and has no Next on the last page', async () => {
    server = searchOver(discs);
    open('/search?search=brake&page=2');
    render(<SearchPage />);

    await userEvent.click(await screen.findByRole('link', { name: 'Next' }));

    expect(window.location.search).toBe('?search=brake&page=3');
    expect(await screen.findByRole('link', { name: truncateTitle(discs[4]!.name, 70) })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Next' })).toBeNull();
    expect(server.requests.at(-1)).toBe('/api/get/productBySearch?search=brake&page=3');
    expect(window.scrollTo).toHaveBeenCalled();
  });

  it('says Product Not Found when nothing matches', async () => {
    server = searchOver(discs);
    open('/search?search=turbocharger&page=1');
    render(<SearchPage />);

    expect(await screen.findByText('Product Not Found')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull();
  });

  it('says Product Not Found when the search fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server = fakeServer({ '/api/get/productBySearch': () => failed(400, 'page must be a positive number') });
    open('/search?search=disc&page=1');
    render(<SearchPage />);

    expect(await screen.findByText('Product Not Found')).toBeTruthy();
    expect(screen.queryAllByRole('article')).toHaveLength(0);
  });

  it('asks for page 1 when the address has no usable page', async () => {
    server = searchOver(discs);
    open('/search?search=&page=abc');
    render(<SearchPage />);

    await screen.findAllByRole('article');
    expect(server.requests).toEqual(['/api/get/productBySearch?search=&page=1']);
  });

  it('says only "Showing results for" when the term is empty, with nothing invented after it', async () => {
    server = searchOver(discs);
    open('/search?search=&page=1');
    render(<SearchPage />);

    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Showing results for');
    await screen.findAllByRole('article');
    await waitFor(() => expect(document.title).toBe('All parts - Marque Parts'));
  });

  it('switches between grid and list, and remembers the choice in localStorage under listView', async () => {
    server = searchOver(discs);
    open('/search?search=brake&page=1');
    const { unmount } = render(<SearchPage />);
    await screen.findAllByRole('article');

    const layout = screen.getByRole('group', { name: 'Layout' });
    const grid = within(layout).getByRole('button', { name: 'Grid view' });
    const list = within(layout).getByRole('button', { name: 'List view' });
    expect(grid.getAttribute('aria-pressed')).toBe('true');
    expect(list.getAttribute('aria-pressed')).toBe('false');
    expect(document.querySelector('.listing__results--list')).toBeNull();

    await userEvent.click(list);
    expect(list.getAttribute('aria-pressed')).toBe('true');
    expect(grid.getAttribute('aria-pressed')).toBe('false');
    expect(localStorage.getItem('listView')).toBe('list');
    expect(document.querySelector('.listing__results--list')).not.toBeNull();

    // A later visit starts in the remembered view.
    unmount();
    render(<SearchPage />);
    expect(screen.getByRole('button', { name: 'List view' }).getAttribute('aria-pressed')).toBe('true');
    await screen.findAllByRole('article');
    expect(document.querySelector('.listing__results--list')).not.toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Grid view' }));
    expect(localStorage.getItem('listView')).toBe('grid');
    expect(document.querySelector('.listing__results--list')).toBeNull();
  });
});
