// DELETE /api/remove/wishlist/{productId}.
import type { Answer } from '@marque/api-client';
import { authorizedFetch } from '@marque/session';
import { outcome } from '../../../lib/call';

export function removeFromWishlist(productId: string) {
  return outcome<Answer<'DELETE /api/remove/wishlist/{productId}'>>(
    authorizedFetch(`/api/remove/wishlist/${encodeURIComponent(productId)}`, { method: 'DELETE' }),
  );
}
