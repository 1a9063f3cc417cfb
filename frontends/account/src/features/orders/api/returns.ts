// GET /api/account/returns: the customer's returns, newest first; POST /api/account/returns: ask to return units of a
// delivered line within its warranty, with a reason and up to three photos (multipart).
import type { Answer } from '@marque/api-client';
import { authorizedFetch } from '@marque/session';
import { outcome } from '../../../lib/call';

export type ProductReturn = Answer<'GET /api/account/returns'>['results'][number];

/** Most photos a return carries (the server's rule too). */
export const MAX_RETURN_PHOTOS = 3;

export function getReturns() {
  return outcome<Answer<'GET /api/account/returns'>>(authorizedFetch('/api/account/returns'));
}

export type ReturnAsk = { orderId: string; productId: string; quantity: number; reason: string; photos: File[] };

export function requestReturn(ask: ReturnAsk) {
  const form = new FormData();
  form.set('orderId', ask.orderId);
  form.set('productId', ask.productId);
  form.set('quantity', String(ask.quantity));
  form.set('reason', ask.reason);
  for (const photo of ask.photos) form.append('photos', photo);
  return outcome<Answer<'POST /api/account/returns'>>(authorizedFetch('/api/account/returns', { method: 'POST', body: form }));
}
