// 'Add to cart' (quantity 1), which becomes 'Go to cart' (opens the panel) once the product is in the cart.
// Nothing when the stock is below 1: the card and the product page already say it is out of stock.
import { addToCart, openCartPanel, useInCart, type CartProduct } from '@marque/cart';
import { useT } from '@marque/i18n';
import { CART_MIN_QUANTITY } from '@marque/rules';
import type { MouseEvent } from 'react';

/** A product as the catalog gives it: `quantity` is its stock. */
export type StockedProduct = CartProduct & { quantity: number };

/** A button inside a product card must not open the product. */
export function withinCard(action: () => void) {
  return (event: MouseEvent) => {
    event.preventDefault();
    event.stopPropagation();
    action();
  };
}

export function AddToCart({ product, place = 'card' }: { product: StockedProduct; place?: 'card' | 'detail' }) {
  const t = useT('checkout');
  const added = useInCart(product._id);
  if (product.quantity < 1) return null;
  return (
    <button
      type="button"
      className={`button add-to-cart add-to-cart--${place}${added ? ' button--quiet' : ''}`}
      onClick={withinCard(() => (added ? openCartPanel() : addToCart(product, CART_MIN_QUANTITY)))}
    >
      {added ? t('add.go') : t('add.add')}
    </button>
  );
}
