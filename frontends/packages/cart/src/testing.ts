// Helpers for tests: a cart in a known state without clicking through the shop.
import { reloadCart } from './store';
import { CART_KEY } from './storage';
import type { CartLine } from './types';

export { reloadCart };

/** A line with recognisable values; `overrides` change any of them. */
export function testLine(overrides: Partial<CartLine> = {}): CartLine {
  return {
    _id: 'p1',
    name: 'Brake pad set',
    price: 2499,
    producttype: 'new',
    images: [{ name: '/media/p1.svg' }],
    quantity: 1,
    ...overrides,
  };
}

/** A fresh page whose storage holds `lines` (nothing when empty): panel closed, no purchase, no address. */
export function resetCart(lines: CartLine[] = []) {
  if (lines.length === 0) localStorage.removeItem(CART_KEY);
  else localStorage.setItem(CART_KEY, JSON.stringify(lines));
  reloadCart();
}
