import { failed } from '@marque/api-client/testing';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { adminServer, CATALOG, OWNER, paged } from '../../test/server';
import { BRANDS, CATEGORIES, PRODUCT } from '../../test/products';
import { ProductEditorPage } from './ProductEditorPage';

const lists = {
  'GET /api/admin/categories': () => paged(CATEGORIES),
  'GET /api/admin/brands': () => paged(BRANDS),
} as const;

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

describe('the product editor', () => {
  it('creates a product with every field and its opening stock, then opens its page', async () => {
    window.history.replaceState(null, '', '/admin/products/new');
    const server = adminServer({ ...lists, 'POST /api/admin/products': () => ({ ...PRODUCT, _id: 'new-1' }) });
    render(<ProductEditorPage me={OWNER} />);
    await screen.findByRole('option', { name: 'Brakes' });
    await userEvent.type(field('Name'), 'Oil filter');
    await userEvent.type(field('Price (₹, GST included)'), '349.50');
    await userEvent.selectOptions(field('Category'), 'engine');
    await userEvent.selectOptions(field('Subcategory'), 'filters');
    await userEvent.selectOptions(field('Brand'), 'hyundai');
    await userEvent.selectOptions(field('Condition'), 'old');
    await userEvent.selectOptions(field('Fuel'), 'diesel');
    await userEvent.type(field('Variant (models it fits)'), 'Creta');
    await userEvent.type(field('Part number'), '26300 35505');
    await userEvent.type(field('Shop SKU'), 'OF-9');
    await userEvent.type(field('Alternate part numbers'), '26300-35504, 2630035503');
    await userEvent.type(field('Superseded part numbers'), '26300-35500');
    await userEvent.type(field('HSN code'), '8421');
    await userEvent.clear(field('Warranty (days)'));
    await userEvent.type(field('Warranty (days)'), '10');
    await userEvent.type(field('Weight (grams)'), '450');
    await userEvent.type(field('Length (mm)'), '90');
    await userEvent.type(field('Width (mm)'), '80');
    await userEvent.type(field('Height (mm)'), '80');
    await userEvent.clear(field('Stock'));
    await userEvent.type(field('Stock'), '12');
    await userEvent.click(screen.getByRole('button', { name: 'Create product' }));

    await waitFor(() => expect(window.location.pathname).toBe('/admin/products/new-1'));
    expect(server.calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Oil filter',
      price: 349.5,
      producttype: 'old',
      description: '',
      category_slug: 'engine',
      subcategory_slug: 'filters',
      oem_slug: 'hyundai',
      fuelType: 'diesel',
      variant: 'Creta',
      partNo: '26300 35505',
      inside_ncr: 0,
      outside_ncr: 0,
      gst: 18,
      sku: 'OF-9',
      alternateNumbers: ['26300-35504', '2630035503'],
      supersededNumbers: ['26300-35500'],
      hsn: '8421',
      warrantyDays: 10,
      weightGrams: 450,
      dimensionsMm: { length: 90, width: 80, height: 80 },
      published: true,
      quantity: 12,
      grade: null,
      donor: null,
      marginScheme: null,
      crossReferences: [],
    });
  });

  it('creates a used unit with its grade, donor car, margin scheme and cross-references', async () => {
    window.history.replaceState(null, '', '/admin/products/new');
    const server = adminServer({ ...lists, 'POST /api/admin/products': () => ({ ...PRODUCT, _id: 'used-1' }) });
    render(<ProductEditorPage me={OWNER} />);
    await screen.findByRole('option', { name: 'Brakes' }, { timeout: 5000 });
    // A new part has no used unit's fields.
    expect(screen.queryByLabelText('Grade')).toBeNull();
    await userEvent.type(field('Name'), 'Calliper');
    await userEvent.type(field('Price (₹, GST included)'), '45000');
    await userEvent.selectOptions(field('Condition'), 'refurbished');
    await userEvent.selectOptions(field('Grade'), 'B');
    expect(screen.getByRole('option', { name: 'B – normal wear for its age' })).toBeTruthy();
    await userEvent.type(field('Donor car: make'), 'BMW');
    await userEvent.type(field('Donor car: model'), 'X5');
    await userEvent.type(field('Donor car: generation'), 'G05');
    await userEvent.type(field('Donor car: model year'), '2019');
    await userEvent.type(field('Donor car: odometer (km)'), '84000');
    await userEvent.type(field('Margin scheme: purchase price (₹)'), '32750.50');
    await userEvent.type(field("Cross-references (other makers' numbers)"), 'Bosch: 0 986 494 104{enter}ATE:13.0460-7217.2');
    await userEvent.click(screen.getByRole('button', { name: 'Create product' }));

    await waitFor(() => expect(window.location.pathname).toBe('/admin/products/used-1'));
    const body = server.calls.find((c) => c.method === 'POST')?.body as Record<string, unknown>;
    expect(body.producttype).toBe('refurbished');
    expect(body.grade).toBe('B');
    expect(body.donor).toEqual({ make: 'BMW', model: 'X5', generation: 'G05', year: 2019, odometerKm: 84000 });
    expect(body.marginScheme).toEqual({ purchasePrice: 3_275_050 });
    expect(body.crossReferences).toEqual([
      { brand: 'Bosch', number: '0 986 494 104' },
      { brand: 'ATE', number: '13.0460-7217.2' },
    ]);
   }, 40_000);

  it('reads a used unit back and takes it out of the margin scheme by emptying its purchase price', async () => {
    const used = {
      ...PRODUCT,
      producttype: 'old',
      grade: 'C',
      donor: { make: 'Audi', model: 'Q7', generation: '4M', year: 2017, odometerKm: 120500 },
      marginScheme: { purchasePrice: 150_000 },
      crossReferences: [{ brand: 'Brembo', number: '09.C879.11' }],
    };
    const server = adminServer({
      ...lists,
      'GET /api/admin/products/{id}': () => used,
      'PATCH /api/admin/products/{id}': ({ body }) => ({ ...used, ...body }),
      'GET /api/admin/products/{id}/stock': () => paged([]),
    });
    render(<ProductEditorPage me={OWNER} id="p1" />);
    await screen.findByRole('heading', { name: 'Edit Brake disc front' });
    expect(field('Grade').value).toBe('C');
    expect(field('Donor car: generation').value).toBe('4M');
    expect(field('Donor car: odometer (km)').value).toBe('120500');
    expect(field('Margin scheme: purchase price (₹)').value).toBe('1500.00');
    expect(field("Cross-references (other makers' numbers)").value).toBe('Brembo: 09.C879.11');
    await userEvent.clear(field('Margin scheme: purchase price (₹)'));
    await userEvent.selectOptions(field('Grade'), 'A');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Saved.')).toBeTruthy();
    expect(server.calls.find((c) => c.method === 'PATCH')?.body).toEqual({ grade: 'A', marginScheme: null });
  });

  it('shows a refused purchase price beside its field', async () => {
    adminServer({
      ...lists,
      'GET /api/admin/products/{id}': () => ({ ...PRODUCT, producttype: 'old' }),
      'PATCH /api/admin/products/{id}': () =>
        failed(400, 'Enter the purchase price: more than 0 and at most 1,00,00,000 rupees', 'product.purchase_price_invalid'),
      'GET /api/admin/products/{id}/stock': () => paged([]),
    });
    render(<ProductEditorPage me={OWNER} id="p1" />);
    await screen.findByRole('heading', { name: 'Edit Brake disc front' });
    await userEvent.type(field('Margin scheme: purchase price (₹)'), '0');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    const message = await screen.findByText('Enter the purchase price: more than 0 and at most 1,00,00,000 rupees');
    expect(message.id).toBe('product-purchasePrice-error');
  });

  it('saves only what changed, never the stock, and unpublishes by the published box', async () => {
    const server = adminServer({
      ...lists,
      'GET /api/admin/products/{id}': () => PRODUCT,
      'PATCH /api/admin/products/{id}': ({ body }) => ({ ...PRODUCT, ...body }),
      'GET /api/admin/products/{id}/stock': () => paged([]),
    });
    render(<ProductEditorPage me={OWNER} id="p1" />);
    expect(await screen.findByRole('heading', { name: 'Edit Brake disc front' })).toBeTruthy();
    expect(field('Price (₹, GST included)').value).toBe('2499.5');
    expect(screen.queryByRole('textbox', { name: 'Stock' })).toBeNull();
    // The product's photographs, each removable by the `_id` the product answer gives it.
    expect(screen.getAllByRole('img', { name: /^Photograph \d$/ })).toHaveLength(3);
    expect(screen.getAllByRole('button', { name: 'Remove' })).toHaveLength(3);
    await userEvent.clear(field('Price (₹, GST included)'));
    await userEvent.type(field('Price (₹, GST included)'), '2299');
    await userEvent.click(screen.getByLabelText('Published in the shop'));
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Saved.')).toBeTruthy();
    const patch = server.calls.find((c) => c.method === 'PATCH');
    expect(patch?.path).toBe('/api/admin/products/p1');
    expect(patch?.body).toEqual({ price: 2299, published: false });

    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Nothing has changed.')).toBeTruthy();
    expect(server.calls.filter((c) => c.method === 'PATCH')).toHaveLength(1);
  });

  it('shows a refusal beside its field and keeps everything typed', async () => {
    adminServer({
      ...lists,
      'GET /api/admin/products/{id}': () => PRODUCT,
      'PATCH /api/admin/products/{id}': () => failed(400, 'Another product already has this SKU', 'product.sku_taken'),
      'GET /api/admin/products/{id}/stock': () => paged([]),
    });
    render(<ProductEditorPage me={OWNER} id="p1" />);
    await screen.findByRole('heading', { name: 'Edit Brake disc front' });
    await userEvent.clear(field('Shop SKU'));
    await userEvent.type(field('Shop SKU'), 'TAKEN-1');
    await userEvent.clear(field('Name'));
    await userEvent.type(field('Name'), 'Brake disc, front pair');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    const message = await screen.findByText('Another product already has this SKU');
    expect(message.id).toBe('product-sku-error');
    expect(field('Shop SKU').getAttribute('aria-invalid')).toBe('true');
    expect(field('Shop SKU').value).toBe('TAKEN-1');
    expect(field('Name').value).toBe('Brake disc, front pair');
  });

  it('shows the photographs and the stock only to roles that may use them', async () => {
    adminServer(
      { ...lists, 'GET /api/admin/products/{id}': () => PRODUCT, 'GET /api/admin/products/{id}/stock': () => paged([]) },
      { ...CATALOG, areas: ['dashboard', 'products', 'categories', 'brands'] },
    );
    render(<ProductEditorPage me={{ ...CATALOG, areas: ['dashboard', 'products', 'categories', 'brands'] }} id="p1" />);
    await screen.findByRole('heading', { name: 'Edit Brake disc front' });
    expect(screen.queryByRole('heading', { name: 'Photographs' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Stock' })).toBeNull();
  });
});
