// GET /api/get/shop (the shop's identity): the payment provider's public key and the address of its checkout script.
import { outcome } from '@marque/session';
import type { Answer } from '@marque/api-client';

type ShopPayment = Pick<Answer<'GET /api/get/shop'>, 'payment'>;

export async function getPaymentSettings(): Promise<ShopPayment['payment'] | null> {
  const answer = await outcome<Answer<'GET /api/get/shop'>>(fetch('/api/get/shop'));
  const payment = answer.ok ? answer.body.payment : undefined;
  return payment && payment.key && payment.script ? payment : null;
}
