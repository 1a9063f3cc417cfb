// When the panel opens, each line is asked of the server again: a product that is gone is marked no longer
// available, a changed price is shown as changed (a cart restored from storage may be days old).
import { applyServerProduct, getCart } from '@marque/cart';
import { useEffect } from 'react';
import { getCheckoutItem } from '../../../lib/api/get-checkout-item';

export function useRefreshCart() {
  useEffect(() => {
    let live = true;
    for (const { _id } of getCart().lines) {
      void getCheckoutItem(_id).then((item) => {
        // An unreachable server changes nothing: the line stays as the shopper last saw it.
        if (!live || item === null) return;
        applyServerProduct(_id, item === 'gone' ? null : item);
      });
    }
    return () => {
      live = false;
    };
  }, []);
}
