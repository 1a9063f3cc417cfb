// POST /api/add/wishlist: one product into the customer's wishlist; a full wishlist answers 'failed'.
import { authorizedFetch, jsonBody, type WishlistEntry } from '@marque/session';
import { outcome } from '../../../lib/call';

export function addToWishlist(entry: WishlistEntry) {
  return outcome<{ status: 'success' }>(authorizedFetch('/api/add/wishlist', jsonBody('POST', entry)));
}
