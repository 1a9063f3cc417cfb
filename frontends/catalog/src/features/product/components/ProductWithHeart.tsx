// The product page with its slots filled by other remotes: the account remote's heart and the checkout
// remote's Buy now and Add to cart (each absent when its remote is down).
import { AddToCartSlot, BuyNowSlot } from '../../../lib/cart-buttons';
import { WishlistHeartSlot } from '../../../lib/wishlist-heart';
import { ProductPage } from './ProductPage';

export function ProductWithHeart() {
  return (
    <ProductPage
      wishlist={(product) => <WishlistHeartSlot product={product} place="detail" />}
      cartActions={(product) => (
        <>
          <BuyNowSlot product={product} />
          <AddToCartSlot product={product} place="detail" />
        </>
      )}
    />
  );
}
