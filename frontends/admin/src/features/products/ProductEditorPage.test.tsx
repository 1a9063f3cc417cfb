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
    });
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
