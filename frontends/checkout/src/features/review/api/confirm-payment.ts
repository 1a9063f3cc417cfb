// POST /api/razorpay/success: the provider's signed answer; the server checks it and places the order once.
import type { Address, CheckoutItem } from '@marque/cart';
import { authorizedFetch, jsonBody, outcome } from '@marque/session';
import type { Ok } from '../../../lib/api-types';

export type ProviderAnswer = { razorpay_payment_id: string; razorpay_order_id: string; razorpay_signature: string };

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
  return outcome<Ok>(authorizedFetch('/api/razorpay/success', jsonBody('POST', { razorpayOption, orderHistory })));
}
