// The checkout calls faked for these tests: products by id from `catalog`, the signed-in customer's user,
// and whatever else a test adds.
import type { CheckoutItem } from '@marque/cart';
import { failed, fakeServer, type FakeCalls, type FakeServer } from '@marque/api-client/testing';
import { TEST_USER } from '@marque/session/testing';
import { afterEach } from 'vitest';

let current: FakeServer | null = null;

afterEach(() => {
  current?.restore();
  current = null;
});

export function checkoutItem(overrides: Partial<CheckoutItem> = {}): CheckoutItem {
  return {
    _id: 'p1',
    name: 'Brake pad set',
    images: [{ name: '/media/p1.svg' }],
    producttype: 'new',
    quantity: 1,
    price: 2499,
    totalQuantity: 5,
    category: 'Brakes',
    subcategory: 'Pads',
    fuelType: 'diesel',
    variant: 'X5',
    partNo: '34116850568',
    outside_ncr: 300,
    inside_ncr: 100,
    gst: 18,
    ...overrides,
  };
}

export function checkoutServer(catalog: CheckoutItem[] = [], calls: FakeCalls = {}): FakeServer {
  current?.restore();
  current = fakeServer(
    {},
    {
      'GET /api/get/checkoutById/{id}': ({ params }) => {
        const item = catalog.find((p) => p._id === params.id);
        return item ? { status: 'success', data: item } : failed(404, 'Product Not Found', 'product.not_found');
      },
      'GET /api/user': () => ({ status: 'success', user: TEST_USER }),
      'GET /api/get/wishlist': () => ({ status: 'success', result: [] }),
      ...calls,
    },
  );
  return current;
}
