import { failed, fakeServer, type FakeServer } from '@marque/api-client/testing';
import { setLanguage } from '@marque/i18n';
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

function openProduct(product = aProduct()) {
  server = fakeServer({
    '/api/get/productById/{id}': ({ params }) =>
      params.id === product._id ? { status: 'success', data: product } : failed(404, 'Product not found'),
  });
  window.history.replaceState(null, '', `/product?productId=${product._id}`);
  render(<ProductPage />);
}

describe('ProductPage', () => {
  it("shows a used unit's grade with the shop's definition, its donor car and cross-references", async () => {
    openProduct(
      aProduct({
        _id: 'p-used',
        producttype: 'old',
        grade: 'B',
        gradeDefinition: 'grade.b',
        donor: { make: 'BMW', model: 'X5', generation: 'G05', year: 2019, odometerKm: 84000 },
        crossReferences: [{ brand: 'Bosch', number: '0 986 494 104' }],
      }),
    );
    await screen.findByRole('heading', { level: 1 });
    expect(particular('Grade')).toBe('Grade B: normal wear for its age, fully working');
    expect(particular('Donor car')).toBe('BMW X5 (G05), 2019, 84,000 km');
    expect(particular('Cross-references')).toBe('Bosch 0 986 494 104');
  });

  it('shows no grade, donor or cross-references for a part without them', async () => {
    openProduct(aProduct({ _id: 'p-new' }));
    await screen.findByRole('heading', { level: 1 });
    for (const label of ['Grade', 'Donor car', 'Cross-references']) {
      expect(screen.queryByText(label, { selector: 'dt' })).toBeNull();
    }
  });

  it('shows the product with its particulars and price including GST', async () => {
    const disc = aProduct({ _id: 'p-7', producttype: 'refurbished', quantity: 2 });
    openProduct(disc);

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
    const points = within(info).getAllByRole('listitem').map((li) => li.textContent);
    expect(points).toEqual([
      'Liability: no refund for transit damage; self-collection is allowed.',
      'Gearbox and engine warranty: void for racing, taxi, off-road or modified use or remaps. Fitting by a certified garage with proof is required. Units are shipped without fluid.',
      "Refunds: 2-15 days warranty depending on the item. Faulty parts must be returned with the invoice. Replacements are at the seller's discretion. Otherwise a 6-month credit note is given.",
    ]);

    await waitFor(() => expect(document.title).toBe(`${disc.name} - Marque Parts`));
    // Cart and wishlist come later: no buttons that do nothing.
    expect(screen.queryByRole('button', { name: /cart|buy|wishlist/i })).toBeNull();
  });

  it('shows every particular, an empty one as a dash, and an unknown condition as Stock Lot', async () => {
    openProduct(
      aProduct({ producttype: 'salvage', fuelType: '', variant: '', partNo: ' ', subcategory: '', description: '' }),
    );
    await screen.findByRole('heading', { level: 1 });

    expect(particular('Condition')).toBe('Stock Lot');
    expect(particular('Fuel type')).toBe('—');
    expect(particular('Variant')).toBe('—');
    expect(particular('Part No')).toBe('—');
    expect(particular('Subcategory')).toBe('—');
    expect(particular('Category')).toBe('Brakes');
    const description = screen.getByRole('heading', { name: 'Description' }).closest('section')!;
    expect(within(description).getByText('—')).toBeTruthy();
  });

  it('says Out of Stock when fewer than one is left', async () => {
    openProduct(aProduct({ quantity: 0 }));

    expect(await screen.findByText('Out of Stock')).toBeTruthy();
    expect(screen.queryByText(/In stock/)).toBeNull();
  });

  it('draws the cart and wishlist places only when a later feature fills them', async () => {
    server = fakeServer({ '/api/get/productById/{id}': () => ({ status: 'success', data: aProduct() }) });
    window.history.replaceState(null, '', '/product?productId=p-1');
    render(
      <ProductPage
        cartActions={(product) => <button type="button">Buy {product.name}</button>}
        wishlist={() => <button type="button">heart</button>}
      />,
    );
    expect(await screen.findByRole('button', { name: `Buy ${aProduct().name}` })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'heart' })).toBeTruthy();
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
    openProduct();

    await userEvent.click(await screen.findByRole('button', { name: 'Show image 2 of 2' }));
    expect((await screen.findByRole('img', { name: aProduct().name })).getAttribute('src')).toBe(
      '/images/products/disc-2.svg',
    );
  });

  it('speaks Hindi when the visitor chose it, leaving the product data as the shop wrote it', async () => {
    await setLanguage('hi');
    try {
      openProduct(aProduct({ quantity: 0, fuelType: '' }));
      expect(await screen.findByRole('heading', { level: 1, name: aProduct().name })).toBeTruthy();
      expect(screen.getByRole('heading', { name: 'ज़रूरी जानकारी' })).toBeTruthy();
      expect(particular('स्थिति')).toBe('नया');
      expect(particular('ईंधन का प्रकार')).toBe('—');
      expect(particular('श्रेणी')).toBe('Brakes');
      expect(screen.getByText('स्टॉक में नहीं')).toBeTruthy();
      expect(screen.queryByText('Out of Stock')).toBeNull();
    } finally {
      await setLanguage('en');
      localStorage.clear();
    }
  });
});
