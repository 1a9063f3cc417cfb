import type { Product } from '@marque/api-client';
import type { FakeServer } from '@marque/api-client/testing';
import { TITLE_LIMITS, truncateTitle } from '@marque/rules';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { catalog, listingShop } from '../../../test/listing-shop';
import { CategoryPage } from './CategoryPage';

let server: FakeServer | undefined;
afterEach(() => server?.restore());

const open = (address: string) => window.history.replaceState(null, '', address);
const address = () => window.location.pathname + window.location.search;
const card = (id: string) => {
  const product = catalog.find((p) => p._id === id)!;
  return screen.findByRole('link', { name: truncateTitle(product.name, TITLE_LIMITS.listingCard) });
};

describe('CategoryPage', () => {
  it("groups an unfiltered category's products by subcategory, each with its count and 'See all'", async () => {
    server = listingShop();
    open('/category/brakes?page=1');
    render(<CategoryPage />);

    expect(await screen.findByRole('heading', { level: 1, name: 'Brakes' })).toBeTruthy();
    const discs = screen.getByRole('region', { name: 'Brake Discs (5)' });
    expect(within(discs).getAllByRole('article')).toHaveLength(4);
    expect(within(discs).getByRole('link', { name: 'See all' }).getAttribute('href')).toBe(
      '/subcategory/brakes/brake-discs?page=1',
    );
    const pads = screen.getByRole('region', { name: 'Brake Pads (1)' });
    expect(within(pads).getByRole('link', { name: 'See all' }).getAttribute('href')).toBe(
      '/subcategory/brakes/brake-pads?page=1',
    );
    // A subcategory without products has no section.
    expect(screen.queryByRole('region', { name: /Others/ })).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull();
    expect(server.requests).toContain('/api/get/product/brakes?page=1');
    await waitFor(() => expect(document.title).toBe('Brakes Parts - Marque Parts'));
  });

  it('lists the products flat, with page links keeping the filters, once a filter is set', async () => {
    server = listingShop();
    open('/category/brakes?page=1&oem=bmw');
    render(<CategoryPage />);

    expect(await card('d-1')).toBeTruthy();
    expect(screen.queryByRole('region')).toBeNull();
    expect(screen.queryByRole('link', { name: 'See all' })).toBeNull();
    expect(screen.getAllByRole('article')).toHaveLength(2);
    const pages = screen.getByRole('navigation', { name: 'Pagination' });
    expect(within(pages).getByRole('link', { name: 'Next' }).getAttribute('href')).toBe('/category/brakes?page=2&oem=bmw');
    expect(server.requests).toContain('/api/get/product/brakes?page=1&oem=bmw');

    await userEvent.click(within(pages).getByRole('link', { name: 'Next' }));
    expect(address()).toBe('/category/brakes?page=2&oem=bmw');
    expect(await card('d-4')).toBeTruthy();
    expect(window.scrollTo).toHaveBeenCalled();
  });

  it('switches from groups to a flat list when a filter is chosen, and back on Reset', async () => {
    server = listingShop();
    open('/category/brakes?page=1');
    render(<CategoryPage />);

    await userEvent.click(await screen.findByRole('checkbox', { name: 'Petrol' }));

    expect(address()).toBe('/category/brakes?page=1&fuel_type=petrol');
    expect(await card('d-3')).toBeTruthy();
    expect(await card('p-1')).toBeTruthy();
    expect(screen.queryByRole('region')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(address()).toBe('/category/brakes?page=1');
    expect(await screen.findByRole('region', { name: 'Brake Discs (5)' })).toBeTruthy();
  });

  it('says Product Not Found for a filter nothing matches', async () => {
    server = listingShop();
    open('/category/brakes?page=1&oem=land-rover');
    render(<CategoryPage />);

    expect(await screen.findByText('Product Not Found')).toBeTruthy();
    expect(screen.queryAllByRole('article')).toHaveLength(0);
  });

  it('says Product Not Found for a category without products', async () => {
    server = listingShop([] as Product[]);
    open('/category/brakes?page=1');
    render(<CategoryPage />);

    expect(await screen.findByText('Product Not Found')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Brakes' })).toBeTruthy();
  });

  it('says Product Not Found for an unknown category (404)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server = listingShop();
    open('/category/gearboxes?page=1');
    render(<CategoryPage />);

    expect(await screen.findByText('Product Not Found')).toBeTruthy();
    expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
    expect(server.requests).toContain('/api/get/product/gearboxes?page=1');
  });

  it('says the filter value is unknown when the server refuses it, and its chip removes it', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server = listingShop();
    open('/category/brakes?page=1&fuel_type=steam');
    render(<CategoryPage />);

    expect(await screen.findByText('Unknown filter value')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Remove steam' }));
    expect(address()).toBe('/category/brakes?page=1');
    expect(await screen.findByRole('region', { name: 'Brake Discs (5)' })).toBeTruthy();
  });
});
