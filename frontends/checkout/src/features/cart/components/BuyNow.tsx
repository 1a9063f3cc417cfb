// Buy now on the product page: this product alone, quantity 1, straight to the address step (or to log in first).
import { startPurchase } from '@marque/cart';
import { useT } from '@marque/i18n';
import { DIRECT_PURCHASE_QUANTITY } from '@marque/rules';
import { useSession } from '@marque/session';
import { useLocation } from 'wouter';
import type { StockedProduct } from './AddToCart';

export function BuyNow({ product }: { product: StockedProduct }) {
  const t = useT('checkout');
  const { status } = useSession();
  const [, navigate] = useLocation();
  if (product.quantity < 1) return null;
  return (
    <button
      type="button"
      className="button buy-now"
      onClick={() => {
        startPurchase(product, DIRECT_PURCHASE_QUANTITY);
        navigate(status === 'anonymous' ? '/login' : '/address');
      }}
    >
      {t('buy.now')}
    </button>
  );
}
