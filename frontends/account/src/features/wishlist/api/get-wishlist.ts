// GET /api/get/wishlist/?user={userId}: the customer's wishlist entries.
import type { Answer } from '@marque/api-client';
import { authorizedFetch } from '@marque/session';
import { outcome } from '../../../lib/call';

export function getWishlist(userId: string) {
  return outcome<Answer<'GET /api/get/wishlist'>>(authorizedFetch(`/api/get/wishlist/?user=${encodeURIComponent(userId)}`));
}
