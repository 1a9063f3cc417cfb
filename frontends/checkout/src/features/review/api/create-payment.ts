// POST /api/razorpay/pay: the server reserves the stock and opens the provider's order for what it computes.
import { authorizedFetch, jsonBody, outcome } from '@marque/session';
import type { Answer, RequestBody } from '@marque/api-client';

export type PayRequest = RequestBody<'POST /api/razorpay/pay'>;

export function createPayment(request: PayRequest) {
  return outcome<Answer<'POST /api/razorpay/pay'>>(authorizedFetch('/api/razorpay/pay', jsonBody('POST /api/razorpay/pay', request)));
}
