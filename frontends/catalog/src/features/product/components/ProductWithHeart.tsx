// The product page with its wishlist slot filled by the account remote's heart (absent when that remote is down).
import { WishlistHeartSlot } from '../../../lib/wishlist-heart';
import { ProductPage } from './ProductPage';

export function ProductWithHeart() {
  return <ProductPage wishlist={(product) => <WishlistHeartSlot product={product} place="detail" />} />;
}
