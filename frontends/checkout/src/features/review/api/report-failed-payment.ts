// POST /api/razorpay/failed: the provider said the payment failed; the server releases the reserved stock.
import { authorizedFetch, jsonBody, outcome } from '@marque/session';
import type { Ok } from '../../../lib/api-types';

export function reportFailedPayment(orderId: string) {
  return outcome<Ok>(authorizedFetch('/api/razorpay/failed', jsonBody('POST', { order_id: orderId })));
}
