// DELETE /api/remove/wishlist/{productId}.
import { authorizedFetch } from '@marque/session';
import { outcome } from '../../../lib/call';

export function removeFromWishlist(productId: string) {
  return outcome<{ status: 'success' }>(
    authorizedFetch(`/api/remove/wishlist/${encodeURIComponent(productId)}`, { method: 'DELETE' }),
  );
}
