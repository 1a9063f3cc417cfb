// POST /api/razorpay/pay: the server reserves the stock and opens the provider's order for what it computes.
import { authorizedFetch, jsonBody, outcome } from '@marque/session';
import type { PayOk, PayRequest } from '../../../lib/api-types';

export function createPayment(request: PayRequest) {
  return outcome<PayOk>(authorizedFetch('/api/razorpay/pay', jsonBody('POST', request)));
}
