// The cart panel: a dialog sliding in from the side with the lines, the subtotal including GST and CHECKOUT.
// CHECKOUT with nothing to order says so; otherwise a visitor goes to log in (the Authorize step), a customer to /address.
import { cancelPurchase, closeCartPanel, orderableLines, useCart } from '@marque/cart';
import { useT } from '@marque/i18n';
import type { MessageCode } from '@marque/rules';
import { useSession } from '@marque/session';
import { Price, useModalDialog } from '@marque/ui';
import { useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useLocation } from 'wouter';
import { useRefreshCart } from '../hooks/use-refresh-cart';
import { subtotalPaise } from '../subtotal';
import { CartLineItem } from './CartLineItem';

export function CartPanel() {
  const { panelOpen } = useCart();
  return panelOpen ? <OpenCartPanel /> : null;
}

function OpenCartPanel() {
  const t = useT('checkout');
  const messages = useT('messages');
  const { lines } = useCart();
  const { status } = useSession();
  const [, navigate] = useLocation();
  const [problem, setProblem] = useState<MessageCode | null>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const dialog = useModalDialog<HTMLDivElement>(closeCartPanel, closeButton);
  const headingId = useId();
  useRefreshCart();

  const checkout = () => {
    if (orderableLines(lines).length === 0) {
      setProblem('checkout.cart_empty');
      return;
    }
    cancelPurchase();
    closeCartPanel();
    navigate(status === 'anonymous' ? '/login' : '/address');
  };

  return createPortal(
    <div
      className="cart-panel__backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) closeCartPanel();
      }}
    >
      <div
        ref={dialog.ref}
        className="cart-panel"
        role="dialog"
        aria-modal="true"
        aria-labelledby={headingId}
        onKeyDown={dialog.onKeyDown}
      >
        <div className="cart-panel__head">
          <h2 id={headingId}>{t('cart.title')}</h2>
          <button ref={closeButton} type="button" className="cart-panel__close" aria-label={t('cart.close')} onClick={closeCartPanel}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
        {lines.length === 0 ? (
          <p className="cart-panel__empty">{t('cart.empty')}</p>
        ) : (
          <ul className="cart-panel__lines">
            {lines.map((line) => (
              <CartLineItem key={line._id} line={line} />
            ))}
          </ul>
        )}
        <div className="cart-panel__foot">
          <p className="cart-panel__subtotal">
            <span>{t('cart.subtotal')}</span> <Price amount={subtotalPaise(lines) / 100} />
          </p>
          {problem ? (
            <p className="form-alert" role="alert">
              {messages(problem)}
            </p>
          ) : null}
          <button type="button" className="button cart-panel__checkout" onClick={checkout}>
            {t('cart.checkout')}
          </button>
        </div>
      </div>
    </div>,
    document.body,
  );
}
