import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  addToCart,
  applyServerProduct,
  cartCount,
  changeQuantity,
  clearAddress,
  clearAfterPayment,
  clearOnHome,
  closeCartPanel,
  getCart,
  inCart,
  openCartPanel,
  removeFromCart,
  selectAddress,
  startPurchase,
  useCart,
  useInCart,
} from './index';
import { reloadCart, resetCart, testLine } from './testing';

const stored = () => JSON.parse(localStorage.getItem('products') ?? 'null') as unknown;
const ADDRESS = { _id: 'a1', houseNo: '12', street: '', landmark: '', city: 'Delhi', state: 'Delhi', mobileNo: '9876543210', pincode: '110001', gstin: '' };

beforeEach(() => resetCart());

describe('the cart', () => {
  it('adds a product once, with quantity 1, and keeps it in local storage under products', () => {
    const product = { _id: 'p9', name: 'Oil filter', price: 899, producttype: 'new', images: [{ name: '/m/9.svg' }], quantity: 7 };
    addToCart(product, 1);
    addToCart(product, 1);
    expect(getCart().lines).toEqual([{ _id: 'p9', name: 'Oil filter', price: 899, producttype: 'new', images: [{ name: '/m/9.svg' }], quantity: 1 }]);
    expect(stored()).toEqual(getCart().lines);
    expect(inCart('p9')).toBe(true);
    expect(cartCount()).toBe(1);
  });

  it('restores the stored cart and drops entries it cannot read', () => {
    resetCart([testLine({ quantity: 3 }), { _id: 'x' } as never, testLine({ _id: 'p2', quantity: 0 })]);
    expect(getCart().lines).toEqual([testLine({ quantity: 3 })]);
    localStorage.setItem('products', '{not json');
    reloadCart();
    expect(getCart().lines).toEqual([]);
  });

  it('never goes below the minimum it is given, has no upper bound, and removes lines', () => {
    resetCart([testLine(), testLine({ _id: 'p2', price: 100 })]);
    changeQuantity('p1', -1, 1);
    expect(getCart().lines[0]?.quantity).toBe(1);
    for (let i = 0; i < 60; i += 1) changeQuantity('p1', 1, 1);
    expect(getCart().lines[0]?.quantity).toBe(61);
    removeFromCart('p1');
    expect(getCart().lines.map((l) => l._id)).toEqual(['p2']);
    expect(stored()).toEqual([testLine({ _id: 'p2', price: 100 })]);
    removeFromCart('p2');
    expect(localStorage.getItem('products')).toBeNull();
  });

  it('follows another tab through the storage event', () => {
    const { result } = renderHook(() => useInCart('p2'));
    expect(result.current).toBe(false);
    act(() => {
      localStorage.setItem('products', JSON.stringify([testLine({ _id: 'p2' })]));
      window.dispatchEvent(new StorageEvent('storage', { key: 'products' }));
    });
    expect(result.current).toBe(true);
    act(() => {
      localStorage.clear();
      window.dispatchEvent(new StorageEvent('storage', { key: null }));
    });
    expect(result.current).toBe(false);
  });

  it('marks a product the server no longer has, and keeps a changed price beside the one the shopper saw', () => {
    resetCart([testLine({ price: 1000 }), testLine({ _id: 'p2', price: 500 })]);
    applyServerProduct('p1', { _id: 'p1', name: 'Brake pad set', price: 1200, producttype: 'new', images: [] });
    applyServerProduct('p2', null);
    const [changed, gone] = getCart().lines;
    expect(changed).toMatchObject({ price: 1200, previousPrice: 1000, quantity: 1 });
    expect(gone).toMatchObject({ unavailable: true, price: 500 });
    expect(stored()).toEqual(getCart().lines);
    // Seen in the panel, then closed: the new price is the price.
    openCartPanel();
    closeCartPanel();
    expect(getCart().lines[0]?.previousPrice).toBeUndefined();
    expect(getCart().lines[1]?.unavailable).toBe(true);
  });
});

describe('checkout choices', () => {
  it('starts a direct purchase of one, and home clears it with the address', () => {
    const { result } = renderHook(() => useCart());
    act(() => {
      startPurchase({ _id: 'p5', name: 'Mirror', price: 5000, producttype: 'old', images: [] }, 1);
      selectAddress(ADDRESS);
    });
    expect(result.current.purchase).toMatchObject({ _id: 'p5', quantity: 1 });
    act(() => clearOnHome());
    expect(result.current.purchase).toBeNull();
    expect(result.current.address).toBeNull();
  });

  it('after payment clears the cart in storage and state, the address and the purchase', () => {
    resetCart([testLine()]);
    selectAddress(ADDRESS);
    startPurchase(testLine({ _id: 'p7' }), 1);
    clearAfterPayment();
    expect(getCart()).toMatchObject({ lines: [], address: null, purchase: null, review: null });
    expect(localStorage.getItem('products')).toBeNull();
  });

  it('the order confirmation clears the address only', () => {
    resetCart([testLine()]);
    selectAddress(ADDRESS);
    clearAddress();
    expect(getCart().address).toBeNull();
    expect(getCart().lines).toHaveLength(1);
  });
});
