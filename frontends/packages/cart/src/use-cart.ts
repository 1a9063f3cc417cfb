// The cart in a component, re-rendering it when the cart changes.
import { useSyncExternalStore } from 'react';
import { getCart, inCart, subscribeCart } from './store';
import type { CartState } from './types';

export function useCart(): CartState {
  return useSyncExternalStore(subscribeCart, getCart, getCart);
}

/** Whether a product is in the cart (a card re-renders only when this answer changes). */
export function useInCart(productId: string): boolean {
  const has = () => inCart(productId);
  return useSyncExternalStore(subscribeCart, has, has);
}
