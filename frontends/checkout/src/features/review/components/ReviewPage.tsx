// /review: the items, the address, items total, discount (when the customer has an offer), delivery charge
// (18% GST included) and the total payable; the customer's store credit, when they have some, pays first (a way of
// paying, not a discount: the total keeps its GST) and the rest is "To pay by card"; then Pay, or Place order when
// the credit pays everything (no card checkout opens). Only with a chosen address; otherwise back to /address.
import { clearAfterPayment, useCart, type Address, type CheckoutItem } from '@marque/cart';
import { useT } from '@marque/i18n';
import type { User } from '@marque/api-client';
import { useSession } from '@marque/session';
import { formatRupees, Price, StepBar, useDocumentTitle } from '@marque/ui';
import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { addressLine } from '../../../lib/address-text';
import { PAYMENT_STATE } from '../../../lib/payment-state';
import { ProblemAlert } from '../../../lib/ProblemAlert';
import { usePayment } from '../hooks/use-payment';
import { reviewTotals, storeCreditApplied } from '../totals';

export function ReviewPage() {
  const t = useT('checkout');
  const { address, review } = useCart();
  const { user } = useSession();
  const [, navigate] = useLocation();
  // A ref, not state: clearing the cart re-renders at once, before a state update would land, and
  // that render must not send a paid shopper back to /address.
  const paid = useRef(false);
  useDocumentTitle(t('review.title'));
  const ready = address !== null && review !== null && review.length > 0;
  useEffect(() => {
    if (!ready && !paid.current) navigate('/address', { replace: true });
  }, [ready, navigate]);

  if (!ready || !user) return null;
  const onPaid = () => {
    paid.current = true;
    navigate('/ordersuccess', { state: PAYMENT_STATE });
    clearAfterPayment();
  };
  return <Review items={review} address={address} user={user} onPaid={onPaid} />;
}

function Review({ items, address, user, onPaid }: { items: readonly CheckoutItem[]; address: Address; user: User; onPaid: () => void }) {
  const t = useT('checkout');
  const totals = reviewTotals(items, address, user);
  const credit = storeCreditApplied(user, totals.total);
  const card = totals.total - credit;
  const { pay, paying, problem } = usePayment({ items, address, user, onPaid, cardDue: card > 0 });
  const rupees = (paise: number) => formatRupees(paise / 100);
  return (
    <section className="checkout-page">
      <StepBar current="review" authorize={false} />
      <h1>{t('review.title')}</h1>
      <div className="review">
        <section aria-labelledby="review-items" className="checkout-card">
          <h2 id="review-items">{t('review.items')}</h2>
          <ul className="review__items">
            {items.map((item) => (
              <li key={item._id} className="review__item">
                {item.images[0] ? <img src={item.images[0].name} alt="" width={64} height={48} /> : null}
                <span className="review__name">{item.name}</span>
                <span className="review__quantity">{t('review.quantity', { count: item.quantity })}</span>
                <Price amount={item.price} />
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="review-address" className="checkout-card">
          <h2 id="review-address">{t('review.deliver_to')}</h2>
          <p>{addressLine(address)}</p>
          <p>{t('address.mobile', { mobile: address.mobileNo })}</p>
        </section>
        <section className="checkout-card">
          <dl className="review__totals">
            <div>
              <dt>{t('review.items_total')}</dt>
              <dd>{rupees(totals.items)}</dd>
            </div>
            {user.offerExp > 0 ? (
              <div>
                <dt>{t('review.discount', { percent: user.percentage })}</dt>
                <dd>−{rupees(totals.discount)}</dd>
              </div>
            ) : null}
            <div>
              <dt>
                {t('review.delivery')} <span className="review__note">({t('review.delivery_gst')})</span>
              </dt>
              <dd>{rupees(totals.delivery)}</dd>
            </div>
            <div className="review__total">
              <dt>{t('review.total')}</dt>
              <dd>{rupees(totals.total)}</dd>
            </div>
            {credit > 0 ? (
              <>
                <div className="review__credit">
                  <dt>{t('review.store_credit')}</dt>
                  <dd>−{rupees(credit)}</dd>
                </div>
                <div className="review__card">
                  <dt>{t('review.to_pay_card')}</dt>
                  <dd>{rupees(card)}</dd>
                </div>
              </>
            ) : null}
          </dl>
          <ProblemAlert problem={problem} />
          <button type="button" className="button review__pay" disabled={paying} aria-busy={paying} onClick={() => void pay()}>
            {paying ? t('review.paying') : card > 0 ? t('review.pay') : t('review.place_order')}
          </button>
        </section>
      </div>
    </section>
  );
}
