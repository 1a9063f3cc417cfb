import { testLine } from '@marque/cart/testing';
import { describe, expect, it } from 'vitest';
import { subtotalPaise } from './subtotal';

describe('the cart subtotal', () => {
  it('adds up price × quantity in paise, leaving out what is no longer available', () => {
    const lines = [testLine({ price: 2499.5, quantity: 2 }), testLine({ _id: 'p2', price: 100 }), testLine({ _id: 'p3', unavailable: true })];
    expect(subtotalPaise(lines)).toBe(509_900);
  });
});
