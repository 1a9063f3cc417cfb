// POST /api/add/wishlist: one product into the customer's wishlist; a full wishlist answers 'failed'.
import type { Answer, RequestBody } from '@marque/api-client';
import { authorizedFetch, jsonBody } from '@marque/session';
import { outcome } from '../../../lib/call';

export function addToWishlist(entry: RequestBody<'POST /api/add/wishlist'>) {
  return outcome<Answer<'POST /api/add/wishlist'>>(authorizedFetch('/api/add/wishlist', jsonBody('POST /api/add/wishlist', entry)));
}
