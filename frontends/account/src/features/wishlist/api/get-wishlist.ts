// GET /api/get/wishlist/?user={userId}: the customer's wishlist entries.
import { authorizedFetch, type WishlistOk } from '@marque/session';
import { outcome } from '../../../lib/call';

export function getWishlist(userId: string) {
  return outcome<WishlistOk>(authorizedFetch(`/api/get/wishlist/?user=${encodeURIComponent(userId)}`));
}
