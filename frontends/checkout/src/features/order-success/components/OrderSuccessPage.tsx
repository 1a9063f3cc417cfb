// /ordersuccess: 'Order Confirmed!' and what happens next; only right after a payment (the history entry
// carries the flag), otherwise home. Visiting it resets the selected address.
import { clearAddress } from '@marque/cart';
import { useT } from '@marque/i18n';
import { useDocumentTitle } from '@marque/ui';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { carriesPayment } from '../../../lib/payment-state';

const NEXT_STEPS = [
  ['success.processing', 'success.processing_text'],
  ['success.shipping', 'success.shipping_text'],
  ['success.support', 'success.support_text'],
] as const;

export function OrderSuccessPage() {
  const t = useT('checkout');
  const [, navigate] = useLocation();
  const [paid] = useState(() => carriesPayment(window.history.state));
  useDocumentTitle(t('success.title'));
  useEffect(() => {
    clearAddress();
    if (!paid) navigate('/', { replace: true });
  }, [paid, navigate]);
  if (!paid) return null;
  return (
    <section className="checkout-page order-success">
      <svg className="order-success__mark" aria-hidden="true" width="56" height="56" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
        <circle cx="12" cy="12" r="10" />
        <path d="M7 12.5l3 3 7-7" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <h1>{t('success.title')}</h1>
      <p>{t('success.thanks')}</p>
      <h2>{t('success.next')}</h2>
      <ol className="order-success__steps">
        {NEXT_STEPS.map(([title, text]) => (
          <li key={title} className="checkout-card">
            <h3>{t(title)}</h3>
            <p>{t(text)}</p>
          </li>
        ))}
      </ol>
      <Link href="/" className="button">
        {t('success.continue')}
      </Link>
    </section>
  );
}
