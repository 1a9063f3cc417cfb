// Pay: the provider's script on demand, the server's order (stock reserved), the provider's checkout, and the
// signed answer sent back. One payment at a time: a second press while one is under way does nothing. When the
// customer's store credit pays everything, the server places the order at Pay and no card checkout opens.
import type { Address, CheckoutItem } from '@marque/cart';
import type { User } from '@marque/api-client';
import { refetchUser } from '@marque/session';
import { useRef, useState } from 'react';
import { checkoutProblem, problemOfCode, ruleProblem, type Problem } from '../../../lib/problem';
import { confirmPayment, type ProviderAnswer } from '../api/confirm-payment';
import { createPayment } from '../api/create-payment';
import { reportFailedPayment } from '../api/report-failed-payment';
import { loadCheckoutScript } from '../load-checkout-script';

/** The order's title and description in the provider's checkout (the specification's values). */
const ORDER_TITLE = 'Orders';
const ORDER_DESCRIPTION = 'Test Transaction';

export function usePayment({
  items,
  address,
  user,
  onPaid,
  cardDue = true,
}: {
  items: readonly CheckoutItem[];
  address: Address;
  user: User;
  onPaid: () => void;
  /** Whether a card pays part of it (the review's reckoning); the server's answer decides. */
  cardDue?: boolean;
}) {
  const [paying, setPaying] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const underWay = useRef(false);

  const settle = (outcome: Problem | null) => {
    underWay.current = false;
    setPaying(false);
    setProblem(outcome);
  };

  const pay = async () => {
    if (underWay.current) return;
    underWay.current = true;
    setPaying(true);
    setProblem(null);

    // The card's script first, so a shopper offline learns it before anything is held.
    let provider = cardDue ? await loadCheckoutScript() : null;
    if (cardDue && !provider) return settle(ruleProblem('payment.sdk_failed'));

    const order = await createPayment({
      products: items.map(({ _id, quantity }) => ({ _id, quantity })),
      address,
      discount: user.offerExp > 0 ? user.percentage : 0,
      user_id: user._id,
    });
    // Credit spent by another checkout meanwhile: the user object is read again, so the review shows what is left.
    if (!order.ok && order.code === 'checkout.credit_changed') void refetchUser();
    if (!order.ok) return settle(order.status === 409 ? problemOfCode(order.code, 'checkout.out_of_stock') : problemOfCode(order.code));

    const { id: orderId, amount, currency } = order.body.paymentResponse;
    // Store credit paid everything: the order is placed, no card payment.
    if (order.body.order) return onPaid();
    if (!provider) {
      provider = await loadCheckoutScript();
      if (!provider) {
        void reportFailedPayment(orderId);
        return settle(ruleProblem('payment.sdk_failed'));
      }
    }
    const confirm = async (answer: ProviderAnswer) => {
      const placed = await confirmPayment(orderId, answer, {
        user_id: user._id,
        products: items.map((item) => ({ ...item, product_id: item._id })),
        address,
        order_id: orderId,
        payment_id: answer.razorpay_payment_id,
        user_name: user.name,
        totalPrice: order.body.total,
      });
      if (placed.ok) onPaid();
      // Paid after the hold lapsed and the part sold out: the payment was refunded, and the shopper is told so.
      else if (placed.code === 'payment.refunded_sold_out') settle(ruleProblem('payment.refunded_sold_out'));
      else settle(checkoutProblem('review.payment_unconfirmed'));
    };
    const checkout = new provider.Provider({
      key: provider.key,
      amount,
      currency,
      order_id: orderId,
      name: ORDER_TITLE,
      description: ORDER_DESCRIPTION,
      prefill: { name: user.name, email: user.email, contact: address.mobileNo || user.mobile },
      handler: (answer) => void confirm(answer),
      modal: { ondismiss: () => settle(null) },
    });
    checkout.on('payment.failed', () => {
      void reportFailedPayment(orderId);
      settle(checkoutProblem('review.payment_failed'));
    });
    checkout.open();
  };

  return { pay, paying, problem };
}
