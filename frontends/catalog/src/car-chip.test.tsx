// The listings' car chip on the search, brand and subcategory pages: it puts `fits` (and `year`) in the address and
// the listing call, and takes them away.
import type { Product } from '@marque/api-client';
import { failed, fakeServer, type FakeServer } from '@marque/api-client/testing';
import { getGarage, closeGarage } from '@marque/session';
import { resetGarage, testCar } from '@marque/session/testing';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { BrandPage } from './features/brand/components/BrandPage';
import { SearchPage } from './features/search/components/SearchPage';
import { SubcategoryPage } from './features/subcategory/components/SubcategoryPage';
import { listingShop } from './test/listing-shop';
import { aProduct } from './test/fixtures';

let server: FakeServer | undefined;
afterEach(() => {
  server?.restore();
  resetGarage();
  closeGarage();
});

const open = (address: string) => window.history.replaceState(null, '', address);
const address = () => window.location.pathname + window.location.search;

/** A search whose products carry the vehicle they fit in their name; `fits` keeps only those. */
function searchShop() {
  const parts: Product[] = [
    aProduct({ _id: 'x5', name: 'Brake disc bmw-x5-g05.b57' }),
    aProduct({ _id: 'x3', name: 'Brake disc bmw-x3-g01.b47' }),
    aProduct({ _id: 'x5b', name: 'Brake pad bmw-x5-g05.b57' }),
  ];
  return fakeServer({
    '/api/get/productBySearch': ({ url }) => {
      const fits = url.searchParams.get('fits');
      if (fits === 'nope.x1') return failed(400, 'We do not know this car. Choose it again from the list.', 'vehicle.unknown');
      if (url.searchParams.get('year') === '1900') return failed(400, 'Year must be between 1950 and 2100', 'vehicle.year_invalid');
      const page = Number(url.searchParams.get('page'));
      const found = parts.filter((p) => p.name.includes(url.searchParams.get('search') ?? '') && (!fits || p.name.endsWith(fits)));
      return { status: 'success', results: found.slice((page - 1) * 1, page), pages: found.length, page, total: found.length };
    },
    '/api/get/vehicles': ({ url }) =>
      url.searchParams.get('generation') === 'bmw-x3-g01'
        ? {
            status: 'success',
            vehicles: [
              { id: 'bmw-x3-g01.b48', make: 'BMW', model: 'X3', generation: 'G01', engine: '2.0i', engineCode: 'B48', fuel: 'petrol', years: { from: 2017, to: null } },
              { id: 'bmw-x3-g01.b47', make: 'BMW', model: 'X3', generation: 'G01', engine: '2.0d', engineCode: 'B47', fuel: 'diesel', years: { from: 2017, to: null } },
            ],
          }
        : failed(400, 'We do not know this car. Choose it again from the list.', 'vehicle.unknown'),
  });
}

describe('the car chip', () => {
  it('narrows a search to the garage car, with its year, and takes the car away again', async () => {
    resetGarage([testCar({ year: 2020 })]);
    server = searchShop();
    open('/search?search=Brake&page=2');
    render(<SearchPage />);
    expect(await screen.findAllByRole('article')).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: 'Only parts for my X5 (G05) 3.0d' }));
    expect(address()).toBe('/search?search=Brake&page=1&fits=bmw-x5-g05.b57&year=2020');
    expect(await screen.findByRole('button', { name: 'Remove BMW X5 (G05) 3.0d 2020' })).toBeTruthy();
    expect(server.requests.at(-1)).toBe('/api/get/productBySearch?search=Brake&page=1&fits=bmw-x5-g05.b57&year=2020');
    const pages = await screen.findByRole('navigation', { name: 'Pagination' });
    expect(within(pages).getByRole('link', { name: 'Next' }).getAttribute('href')).toBe(
      '/search?search=Brake&page=2&fits=bmw-x5-g05.b57&year=2020',
    );

    await userEvent.click(screen.getByRole('button', { name: 'Remove BMW X5 (G05) 3.0d 2020' }));
    expect(address()).toBe('/search?search=Brake&page=1');
    expect(await screen.findByRole('button', { name: 'Only parts for my X5 (G05) 3.0d' })).toBeTruthy();
    expect(server.requests.at(-1)).toBe('/api/get/productBySearch?search=Brake&page=1');
  });

  it('names a shared link’s car from the vehicle table when it is not in this garage, and asks with it at once', async () => {
    resetGarage();
    server = searchShop();
    open('/search?search=Brake&page=1&fits=bmw-x3-g01.b47&year=2021');
    render(<SearchPage />);
    expect(await screen.findByRole('button', { name: 'Remove BMW X3 (G01) 2.0d 2021' })).toBeTruthy();
    expect(screen.getByText('Fits BMW X3 (G01) 2.0d 2021')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Remove bmw-x3-g01/ })).toBeNull();
    expect(server.requests).toContain('/api/get/productBySearch?search=Brake&page=1&fits=bmw-x3-g01.b47&year=2021');
    expect(server.requests).toContain('/api/get/vehicles?generation=bmw-x3-g01');
  });

  it('says when the server does not know the car, and the chip still takes it away', async () => {
    server = searchShop();
    open('/search?search=Brake&page=1&fits=nope.x1&year=x');
    render(<SearchPage />);
    expect(await screen.findByText('We do not know this car. Choose it again from the list.')).toBeTruthy();
    expect(server.requests).toContain('/api/get/productBySearch?search=Brake&page=1&fits=nope.x1');
    expect(server.requests.filter((r) => r.startsWith('/api/get/productBySearch'))).toHaveLength(1);
    // The vehicle table does not know it either: the chip names it as the address does.
    expect(await screen.findByRole('button', { name: 'Remove nope.x1' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Remove nope.x1' }));
    expect(address()).toBe('/search?search=Brake&page=1');
  });

  it('says when the server refuses the year', async () => {
    server = searchShop();
    open('/search?search=Brake&page=1&fits=bmw-x5-g05.b57&year=1900');
    render(<SearchPage />);
    expect(await screen.findByText('Year must be between 1950 and 2100')).toBeTruthy();
  });

  it('opens the garage when no car is chosen', async () => {
    resetGarage([testCar()], null);
    server = searchShop();
    open('/search?search=Brake&page=1');
    render(<SearchPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Choose your car' }));
    expect(getGarage().open).toBe(true);
    expect(address()).toBe('/search?search=Brake&page=1');
  });

  it('keeps the car when a filter of a subcategory changes, and its call carries the car', async () => {
    resetGarage([testCar()]);
    server = listingShop();
    open('/subcategory/brakes/brake-discs?page=1&oem=bmw&fits=bmw-x5-g05.b57');
    render(<SubcategoryPage />);
    expect(await screen.findByRole('button', { name: 'Remove BMW X5 (G05) 3.0d' })).toBeTruthy();
    expect(server.requests).toContain('/api/get/product/brakes/brake-discs?page=1&oem=bmw&fits=bmw-x5-g05.b57');

    await userEvent.click(await screen.findByRole('button', { name: 'Remove BMW' }));
    expect(address()).toBe('/subcategory/brakes/brake-discs?page=1&fits=bmw-x5-g05.b57');
    expect(server.requests.at(-1)).toBe('/api/get/product/brakes/brake-discs?page=1&fits=bmw-x5-g05.b57');
  });

  it('narrows a brand page to the car', async () => {
    resetGarage([testCar()]);
    server = fakeServer({
      '/api/get/brand/oem': () => ({ status: 'success', data: [{ id: 'b', name: 'BMW', slug: 'bmw', image: '' }] }),
      '/api/get/productByOem/{brandSlug}': () => ({ status: 'success', results: [], pages: 0, page: 1, total: 0 }),
    });
    open('/brand/bmw?page=3');
    render(<BrandPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Only parts for my X5 (G05) 3.0d' }));
    expect(address()).toBe('/brand/bmw?page=1&fits=bmw-x5-g05.b57');
    expect(server.requests.at(-1)).toBe('/api/get/productByOem/bmw?page=1&fits=bmw-x5-g05.b57');
  });
});
