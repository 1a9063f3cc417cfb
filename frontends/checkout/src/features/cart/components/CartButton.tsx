// The header's cart icon with the number of parts in the cart; opens the cart panel.
// Hidden while a direct purchase (Buy now) is in progress.
import { cartCount, openCartPanel, useCart } from '@marque/cart';
import { useT } from '@marque/i18n';

export function CartButton() {
  const t = useT('checkout');
  const { lines, purchase, panelOpen } = useCart();
  if (purchase) return null;
  const count = cartCount(lines);
  return (
    <button
      type="button"
      className="cart-button"
      aria-label={t('cart.open', { count })}
      aria-haspopup="dialog"
      aria-expanded={panelOpen}
      onClick={openCartPanel}
    >
      <svg aria-hidden="true" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
        <path d="M3 4h2l2.4 11.2a1 1 0 0 0 1 .8h9.2a1 1 0 0 0 1-.8L20.5 8H6.2" strokeLinejoin="round" />
        <circle cx="9.5" cy="20" r="1.4" />
        <circle cx="17" cy="20" r="1.4" />
      </svg>
      <span className="cart-button__count" aria-hidden="true">
        {count}
      </span>
    </button>
  );
}
