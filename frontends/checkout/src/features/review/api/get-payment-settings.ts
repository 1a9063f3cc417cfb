// GET /api/get/shop (the shop's identity): the payment provider's public key and the address of its checkout script.
import { outcome } from '@marque/session';
import type { ShopPayment } from '../../../lib/api-types';

export async function getPaymentSettings(): Promise<ShopPayment['payment'] | null> {
  const answer = await outcome<ShopPayment & { status: string }>(fetch('/api/get/shop'));
  const payment = answer.ok ? answer.body.payment : undefined;
  return payment && payment.key && payment.script ? payment : null;
}
