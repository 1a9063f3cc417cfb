import { failed, fakeServer, type FakeServer } from '@marque/api-client/testing';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { aProduct } from '../../../test/fixtures';
import { ProductPage } from './ProductPage';

let server: FakeServer | undefined;
afterEach(() => server?.restore());

function particular(label: string): string | null | undefined {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent;
}

describe('ProductPage', () => {
  it('shows the product with its particulars and price including GST', async () => {
    const disc = aProduct({ _id: 'p-7', producttype: 'refurbished', quantity: 2 });
    server = fakeServer({
      '/api/get/productById/{id}': ({ params }) =>
        params.id === 'p-7' ? { status: 'success', data: disc } : failed(404, 'Product not found'),
    });
    window.history.replaceState(null, '', '/product?productId=p-7');
    render(<ProductPage />);

    expect(await screen.findByRole('heading', { level: 1, name: disc.name })).toBeTruthy();
    expect(screen.getByText('₹18,990')).toBeTruthy();
    expect(screen.getByText('inc. GST')).toBeTruthy();
    expect(screen.getByText('In stock: 2')).toBeTruthy();
    expect(screen.queryByText('Out of Stock')).toBeNull();
    expect(particular('Part No')).toBe('34 10 6 797 602');
    expect(particular('Condition')).toBe('Refurbished');
    expect(particular('Category')).toBe('Brakes');
    expect(particular('Subcategory')).toBe('Brake Discs');
    expect(particular('Fuel type')).toBe('Diesel');
    expect(particular('Variant')).toBe('530d xDrive');
    expect(particular('Brand')).toBe('BMW');
    expect(screen.getByText(disc.description)).toBeTruthy();
    expect(screen.getByRole('img', { name: disc.name }).getAttribute('src')).toBe('/images/products/disc-1.svg');

    const info = screen.getByRole('heading', { name: 'Important Information' }).closest('section')!;
    expect(within(info).getAllByRole('listitem')).toHaveLength(3);
    expect(within(info).getByText(/2 to 15 days/)).toBeTruthy();
    expect(within(info).getByText(/6 months/)).toBeTruthy();

    await waitFor(() => expect(document.title).toBe(`${disc.name} - Marque Parts`));
    // Cart and wishlist come later: no buttons that do nothing.
    expect(screen.queryByRole('button', { name: /cart|buy|wishlist/i })).toBeNull();
  });

  it('says Out of Stock when fewer than one is left', async () => {
    server = fakeServer({
      '/api/get/productById/{id}': () => ({ status: 'success', data: aProduct({ quantity: 0 }) }),
    });
    window.history.replaceState(null, '', '/product?productId=p-1');
    render(<ProductPage />);

    expect(await screen.findByText('Out of Stock')).toBeTruthy();
    expect(screen.queryByText(/In stock/)).toBeNull();
  });

  it('says Product Not Found for an unknown product', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server = fakeServer({ '/api/get/productById/{id}': () => failed(404, 'Product not found') });
    window.history.replaceState(null, '', '/product?productId=nope');
    render(<ProductPage />);

    expect(await screen.findByText('Product Not Found')).toBeTruthy();
    expect(server.requests).toEqual(['/api/get/productById/nope']);
    await waitFor(() => expect(document.title).toBe('Product not found - Marque Parts'));
  });

  it('switches the large image from the thumbnails', async () => {
    server = fakeServer({ '/api/get/productById/{id}': () => ({ status: 'success', data: aProduct() }) });
    window.history.replaceState(null, '', '/product?productId=p-1');
    render(<ProductPage />);

    await userEvent.click(await screen.findByRole('button', { name: 'Show image 2 of 2' }));
    expect((await screen.findByRole('img', { name: aProduct().name })).getAttribute('src')).toBe(
      '/images/products/disc-2.svg',
    );
  });
});
