// The cart buttons come from the checkout remote: Add to cart / Go to cart on cards and the product page,
// Buy now on the product page (absent when that remote is down).
import type { ProductCardProduct } from '@marque/ui';
import { RemotePiece } from './remote-piece';

/** A product as cards and the product page have it; its `quantity` is the stock (below 1: no cart button). */
export type CartButtonProduct = ProductCardProduct;

export function AddToCartSlot({ product, place }: { product: CartButtonProduct; place: 'card' | 'detail' }) {
  return <RemotePiece id="checkout/AddToCart" props={{ product, place }} />;
}

export function BuyNowSlot({ product }: { product: CartButtonProduct }) {
  return <RemotePiece id="checkout/BuyNow" props={{ product }} />;
}

/**
 * For product lists: the cart button under a card's price, in a place of the button's height from the first paint
 * (the checkout remote draws it later), so the cards below never move when it arrives. Nothing when out of stock.
 */
export function cardCart(product: CartButtonProduct) {
  if (product.quantity < 1) return null;
  return (
    <div className="cart-slot">
      <AddToCartSlot product={product} place="card" />
    </div>
  );
}
