// The cart panel's subtotal in paise, GST included, by the shop's pricing rule: what can still be ordered.
import { orderableLines, type CartLine } from '@marque/cart';
import { computeTotals } from '@marque/rules';

export function subtotalPaise(lines: readonly CartLine[]): number {
  const priced = orderableLines(lines).map((l) => ({
    unitPrice: Math.round(l.price * 100),
    quantity: l.quantity,
    insideNcr: 0,
    outsideNcr: 0,
  }));
  return computeTotals(priced, 'ncr', { offerExp: 0, percentage: 0 }).items;
}
