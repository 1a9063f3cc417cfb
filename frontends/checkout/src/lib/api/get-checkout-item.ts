// GET /api/get/checkoutById/{id}: a product as checkout needs it, with the stock now (public).
import type { CheckoutItem } from '@marque/cart';
import { outcome } from '@marque/session';
import type { Answer } from '@marque/api-client';

/** The item, `'gone'` when the server no longer has the product (404), or null when it could not be asked. */
export async function getCheckoutItem(productId: string): Promise<CheckoutItem | 'gone' | null> {
  const answer = await outcome<Answer<'GET /api/get/checkoutById/{id}'>>(fetch(`/api/get/checkoutById/${encodeURIComponent(productId)}`));
  if (answer.ok) return answer.body.data;
  return answer.status === 404 ? 'gone' : null;
}
