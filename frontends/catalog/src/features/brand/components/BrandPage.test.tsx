import type { OemBrand, Product } from '@marque/api-client';
import { failed, fakeServer, type FakeServer } from '@marque/api-client/testing';
import { TITLE_LIMITS, truncateTitle } from '@marque/rules';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { aBrand, aProduct } from '../../../test/fixtures';
import { BrandPage } from './BrandPage';

let server: FakeServer | undefined;
afterEach(() => server?.restore());

const open = (address: string) => window.history.replaceState(null, '', address);

const brands: OemBrand[] = [
  aBrand({ id: 'b-1', name: 'BMW', slug: 'bmw' }),
  aBrand({ id: 'b-2', name: 'Land Rover', slug: 'land-rover', image: '/images/brands/land-rover.svg' }),
];

const bmwParts = [1, 2, 3, 4, 5].map((n) =>
  aProduct({
    _id: `bmw-${n}`,
    name: `BMW 5 Series G30 530d xDrive front brake disc ${n}, ventilated 348 mm, with fitting kit and wear sensor`,
  }),
);
const landRoverParts = [
  aProduct({ _id: 'lr-1', name: 'Land Rover Defender Air Suspension Compressor', oem: 'Land Rover', oem_slug: 'land-rover' }),
];

/** A fake shop knowing `brands` and the products of `catalog`, 2 a page, the way the server pages a brand. */
function shopWith(catalog: Product[], { brandList = brands }: { brandList?: OemBrand[] } = {}) {
  return fakeServer({
    '/api/get/brand/oem': () => ({ status: 'success', data: brandList }),
    '/api/get/productByOem/{brandSlug}': ({ url, params }) => {
      const page = Number(url.searchParams.get('page') ?? 1);
      const found = catalog.filter((p) => p.oem_slug === params.brandSlug);
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

const cardTitle = (product: Product) => truncateTitle(product.name, TITLE_LIMITS.listingCard);

describe('BrandPage', () => {
  it("shows the brand's name, the products of the page and the page links", async () => {
    server = shopWith(bmwParts);
    open('/brand/bmw?page=2');
    render(<BrandPage />);

    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('BMW Spare Parts');
    const third = await screen.findByRole('link', { name: cardTitle(bmwParts[2]!) });
    expect(third.getAttribute('href')).toBe('/product?productId=bmw-3');
    expect(third.textContent).not.toBe(bmwParts[2]!.name);
    expect(screen.getAllByRole('article')).toHaveLength(2);

    const pages = screen.getByRole('navigation', { name: 'Pagination' });
    expect(within(pages).getByRole('link', { name: 'Previous' }).getAttribute('href')).toBe('/brand/bmw?page=1');
    expect(within(pages).getByRole('link', { name: 'Next' }).getAttribute('href')).toBe('/brand/bmw?page=3');
    await waitFor(() => expect(document.title).toBe('BMW Spare Parts - Marque Parts'));
    expect(server.requests).toContain('/api/get/productByOem/bmw?page=2');
  });

  it('hides Previous on page 1, and Next leads to page 2 at the top of the page', async () => {
    server = shopWith(bmwParts);
    open('/brand/bmw?page=1');
    render(<BrandPage />);

    await screen.findByRole('link', { name: cardTitle(bmwParts[0]!) });
    expect(screen.queryByRole('link', { name: 'Previous' })).toBeNull();
    await userEvent.click(screen.getByRole('link', { name: 'Next' }));

    expect(window.location.pathname + window.location.search).toBe('/brand/bmw?page=2');
    expect(await screen.findByRole('link', { name: cardTitle(bmwParts[3]!) })).toBeTruthy();
    expect(server.requests.at(-1)).toBe('/api/get/productByOem/bmw?page=2');
    expect(window.scrollTo).toHaveBeenCalled();
  });

  it('hides Next on the last page', async () => {
    server = shopWith(bmwParts);
    open('/brand/bmw?page=3');
    render(<BrandPage />);

    expect(await screen.findByRole('link', { name: cardTitle(bmwParts[4]!) })).toBeTruthy();
    expect(screen.getAllByRole('article')).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Previous' }).getAttribute('href')).toBe('/brand/bmw?page=2');
    expect(screen.queryByRole('link', { name: 'Next' })).toBeNull();
  });

  it('names a brand whose slug has a hyphen by its name', async () => {
    server = shopWith([...bmwParts, ...landRoverParts]);
    open('/brand/land-rover?page=1');
    render(<BrandPage />);

    expect(await screen.findByRole('heading', { level: 1, name: 'Land Rover Spare Parts' })).toBeTruthy();
    expect(await screen.findByRole('link', { name: landRoverParts[0]!.name })).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull();
    await waitFor(() => expect(document.title).toBe('Land Rover Spare Parts - Marque Parts'));
  });

  it('says Product Not Found for a brand without products, named by its slug', async () => {
    server = shopWith(bmwParts);
    open('/brand/lada?page=1');
    render(<BrandPage />);

    expect(await screen.findByText('Product Not Found')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('lada Spare Parts');
    expect(screen.queryAllByRole('article')).toHaveLength(0);
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull();
  });

  it('says Product Not Found when the products cannot be loaded', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server = fakeServer({
      '/api/get/brand/oem': () => ({ status: 'success', data: brands }),
      '/api/get/productByOem/{brandSlug}': () => failed(503, 'The catalog is unavailable right now. Please try again.'),
    });
    open('/brand/bmw?page=1');
    render(<BrandPage />);

    expect(await screen.findByText('Product Not Found')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'BMW Spare Parts' })).toBeTruthy();
    expect(screen.queryAllByRole('article')).toHaveLength(0);
  });

  it('falls back to the slug when the brand list cannot be loaded, and still lists the products', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server = fakeServer({
      '/api/get/brand/oem': () => failed(503, 'The catalog is unavailable right now. Please try again.'),
      '/api/get/productByOem/{brandSlug}': () => ({
        status: 'success',
        results: bmwParts.slice(0, 2),
        pages: 1,
        page: 1,
        total: 2,
      }),
    });
    open('/brand/bmw?page=1');
    render(<BrandPage />);

    expect(await screen.findByRole('heading', { level: 1, name: 'bmw Spare Parts' })).toBeTruthy();
    expect(await screen.findAllByRole('article')).toHaveLength(2);
    await waitFor(() => expect(document.title).toBe('bmw Spare Parts - Marque Parts'));
  });

  it('asks for page 1 when the address has no usable page', async () => {
    server = shopWith(bmwParts);
    open('/brand/bmw?page=abc');
    render(<BrandPage />);

    await screen.findAllByRole('article');
    const listings = server.requests.filter((r) => r.startsWith('/api/get/productByOem/'));
    expect(listings).toEqual(['/api/get/productByOem/bmw?page=1']);
  });
});
