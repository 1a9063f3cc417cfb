// POST /api/razorpay/success: the provider's signed answer; the server checks it and places the order once.
import type { Address, CheckoutItem } from '@marque/cart';
import { authorizedFetch, jsonBody, outcome } from '@marque/session';
import type { Answer, RequestBody } from '@marque/api-client';

/** What the provider's checkout hands back: the document's `razorpayOption` without our order id. */
export type ProviderAnswer = Omit<RequestBody<'POST /api/razorpay/success'>['razorpayOption'], 'order_id'>;

/** The order's record the spec's client sends beside the payment (the document leaves it open: `orderHistory?: unknown`). */
export type OrderHistory = {
  user_id: string;
  products: Array<CheckoutItem & { product_id: string }>;
  address: Address;
  order_id: string;
  payment_id: string;
  user_name: string;
  totalPrice: number;
};

export function confirmPayment(orderId: string, answer: ProviderAnswer, orderHistory: OrderHistory) {
  const razorpayOption = {
    order_id: orderId,
    razorpay_payment_id: answer.razorpay_payment_id,
    razorpay_order_id: answer.razorpay_order_id,
    razorpay_signature: answer.razorpay_signature,
  };
  return outcome<Answer<'POST /api/razorpay/success'>>(
    authorizedFetch('/api/razorpay/success', jsonBody('POST /api/razorpay/success', { razorpayOption, orderHistory })),
  );
}
