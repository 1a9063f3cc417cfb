// POST /api/razorpay/failed: the provider said the payment failed; the server releases the reserved stock.
import { authorizedFetch, jsonBody, outcome } from '@marque/session';
import type { Answer } from '@marque/api-client';

export function reportFailedPayment(orderId: string) {
  return outcome<Answer<'POST /api/razorpay/failed'>>(
    authorizedFetch('/api/razorpay/failed', jsonBody('POST /api/razorpay/failed', { order_id: orderId })),
  );
}
