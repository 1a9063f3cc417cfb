// The review's amounts by the shop's rules (the server computes what is charged): rupees in, paise out.
import type { Address, CheckoutItem } from '@marque/cart';
import { computeTotals, deliveryRegion, type Totals } from '@marque/rules';

const paise = (rupees: number) => Math.round(rupees * 100);

export function reviewTotals(items: readonly CheckoutItem[], address: Address, offer: { offerExp: number; percentage: number }): Totals {
  const lines = items.map((item) => ({
    unitPrice: paise(item.price),
    quantity: item.quantity,
    insideNcr: paise(item.inside_ncr),
    outsideNcr: paise(item.outside_ncr),
  }));
  return computeTotals(lines, deliveryRegion(address.pincode), offer);
}

/**
 * The store credit that pays part of `totalPaise` (paise): min(balance, total), as the server's rule takes it
 * (core/domain/src/store_credit.rs). The server prices the order again at Pay; this is what the review shows.
 */
export function storeCreditApplied(user: { storeCredit?: { balance: number } | null }, totalPaise: number): number {
  const balance = paise(user.storeCredit?.balance ?? 0);
  return Math.max(0, Math.min(balance, totalPaise));
}
