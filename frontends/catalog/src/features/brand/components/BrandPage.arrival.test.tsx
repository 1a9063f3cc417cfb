// The brand page's product links carry "from this brand" in the history entry, for the product breadcrumb.
import { fakeServer, type FakeServer } from '@marque/api-client/testing';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { brandArrivalFrom } from '../../../lib/arrival';
import { aBrand, aProduct } from '../../../test/fixtures';
import { BrandPage } from './BrandPage';

let server: FakeServer | undefined;
afterEach(() => server?.restore());

function openBrandPage() {
  server = fakeServer({
    '/api/get/brand/oem': () => ({ status: 'success', data: [aBrand({ name: 'BMW', slug: 'bmw' })] }),
    '/api/get/productByOem/{brandSlug}': () => ({
      status: 'success',
      results: [aProduct({ _id: 'bmw-1', name: 'BMW brake disc' })],
      pages: 1,
      page: 1,
      total: 1,
    }),
  });
  window.history.replaceState(null, '', '/brand/bmw?page=1');
  render(<BrandPage />);
}

describe('product links on a brand page', () => {
  it('open the product with the brand in the history state', async () => {
    openBrandPage();
    await userEvent.click(await screen.findByRole('link', { name: 'BMW brake disc' }));

    expect(location.pathname + location.search).toBe('/product?productId=bmw-1');
    expect(brandArrivalFrom(history.state)).toEqual({ from: 'brand', slug: 'bmw', name: 'BMW' });
  });

  it('leave a click with a modifier (a new tab) to the browser', async () => {
    openBrandPage();
    const link = await screen.findByRole('link', { name: 'BMW brake disc' });
    fireEvent.click(link, { ctrlKey: true });

    expect(location.pathname).toBe('/brand/bmw');
    expect(brandArrivalFrom(history.state)).toBeNull();
  });
});
