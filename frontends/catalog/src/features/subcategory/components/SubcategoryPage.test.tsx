import type { FakeServer } from '@marque/api-client/testing';
import { TITLE_LIMITS, truncateTitle } from '@marque/rules';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { catalog, listingShop } from '../../../test/listing-shop';
import { SubcategoryPage } from './SubcategoryPage';

let server: FakeServer | undefined;
afterEach(() => server?.restore());

const open = (address: string) => window.history.replaceState(null, '', address);
const address = () => window.location.pathname + window.location.search;
const cardName = (id: string) => truncateTitle(catalog.find((p) => p._id === id)!.name, TITLE_LIMITS.listingCard);

describe('SubcategoryPage', () => {
  it('shows a page of the products, with page links that keep the filters', async () => {
    server = listingShop();
    open('/subcategory/brakes/brake-discs?page=2&oem=bmw');
    render(<SubcategoryPage />);

    expect(await screen.findByRole('heading', { level: 1, name: 'Brake Discs' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Brakes' }).getAttribute('href')).toBe('/category/brakes?page=1');
    expect(await screen.findByRole('link', { name: cardName('d-5') })).toBeTruthy();
    expect(screen.getAllByRole('article')).toHaveLength(2);
    expect(server.requests).toContain('/api/get/product/brakes/brake-discs?page=2&oem=bmw');

    const pages = screen.getByRole('navigation', { name: 'Pagination' });
    expect(within(pages).getByRole('link', { name: 'Previous' }).getAttribute('href')).toBe(
      '/subcategory/brakes/brake-discs?page=1&oem=bmw',
    );
    expect(within(pages).queryByRole('link', { name: 'Next' })).toBeNull();
    await waitFor(() => expect(document.title).toBe('Brake Discs - Brakes - Marque Parts'));
  });

  it('goes to the next page, at the top, with Next', async () => {
    server = listingShop();
    open('/subcategory/brakes/brake-discs?page=1');
    render(<SubcategoryPage />);

    expect(await screen.findByRole('link', { name: cardName('d-1') })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Previous' })).toBeNull();
    await userEvent.click(screen.getByRole('link', { name: 'Next' }));

    expect(address()).toBe('/subcategory/brakes/brake-discs?page=2');
    expect(await screen.findByRole('link', { name: cardName('d-3') })).toBeTruthy();
    expect(server.requests.at(-1)).toBe('/api/get/product/brakes/brake-discs?page=2');
    expect(window.scrollTo).toHaveBeenCalled();
  });

  it('says Product Not Found when nothing matches the filters', async () => {
    server = listingShop();
    open('/subcategory/brakes/brake-pads?page=1&fuel_type=diesel');
    render(<SubcategoryPage />);

    expect(await screen.findByText('Product Not Found')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull();
  });
});
