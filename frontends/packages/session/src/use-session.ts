// The session in a component, re-rendering it when the customer signs in or out or the wishlist changes.
import { useSyncExternalStore } from 'react';
import { ANONYMOUS, getSession, subscribe, type SessionState } from './store';

export function useSession(): SessionState {
  return useSyncExternalStore(subscribe, getSession, () => ANONYMOUS);
}

/** Whether a product is in the signed-in customer's wishlist. */
export function useWished(productId: string): boolean {
  return useSyncExternalStore(
    subscribe,
    () => getSession().wishlist.has(productId),
    () => false,
  );
}
