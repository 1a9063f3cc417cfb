// NEXT on the address step: a chosen address, something to buy (the direct purchase, else the cart), each line
// reloaded from the server and within its stock; the checked lines are kept for the review page.
import { applyServerProduct, getCart, orderableLines, setReview, type CheckoutItem } from '@marque/cart';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { ruleProblem, type Problem } from '../../../lib/problem';
import { getCheckoutItem } from '../../../lib/api/get-checkout-item';

export function useNextStep() {
  const [, navigate] = useLocation();
  const [problem, setProblem] = useState<Problem | null>(null);
  const [checking, setChecking] = useState(false);

  const next = async () => {
    const { address, purchase, lines } = getCart();
    if (!address) return setProblem(ruleProblem('checkout.address_missing'));
    const wanted = purchase ? [purchase] : orderableLines(lines);
    if (wanted.length === 0) return setProblem(ruleProblem('checkout.cart_empty'));
    setProblem(null);
    setChecking(true);
    const found = await Promise.all(wanted.map((line) => getCheckoutItem(line._id)));
    setChecking(false);
    const items: CheckoutItem[] = [];
    for (const [index, item] of found.entries()) {
      const line = wanted[index];
      if (!line) continue;
      if (item === null) return setProblem(ruleProblem('common.unknown'));
      if (item === 'gone') {
        if (!purchase) applyServerProduct(line._id, null);
        return setProblem(ruleProblem('checkout.out_of_stock'));
      }
      if (line.quantity > item.totalQuantity) return setProblem(ruleProblem('checkout.out_of_stock'));
      items.push({ ...item, quantity: line.quantity });
    }
    setReview(items);
    navigate('/review');
  };

  return { next, problem, checking };
}
