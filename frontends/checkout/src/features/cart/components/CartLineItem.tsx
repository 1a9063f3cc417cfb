// One line of the cart panel: picture, name, price (with the old one when it changed), quantity − / + and Remove.
import { changeQuantity, removeFromCart, type CartLine } from '@marque/cart';
import { useT } from '@marque/i18n';
import { CART_MIN_QUANTITY } from '@marque/rules';
import { formatRupees, Price } from '@marque/ui';

export function CartLineItem({ line }: { line: CartLine }) {
  const t = useT('checkout');
  const image = line.images[0]?.name;
  return (
    <li className={line.unavailable ? 'cart-line cart-line--unavailable' : 'cart-line'}>
      {image ? <img className="cart-line__image" src={image} alt="" width={72} height={54} /> : <span className="cart-line__image" />}
      <div className="cart-line__body">
        <p className="cart-line__name">{line.name}</p>
        <Price amount={line.price} />
        {line.previousPrice !== undefined ? (
          <p className="cart-line__notice" role="status">
            {t('cart.price_changed', { was: formatRupees(line.previousPrice) })}
          </p>
        ) : null}
        {line.unavailable ? (
          <p className="cart-line__notice" role="status">
            {t('cart.unavailable')}
          </p>
        ) : (
          <div className="quantity" role="group" aria-label={t('cart.quantity', { name: line.name })}>
            <button
              type="button"
              className="quantity__step"
              aria-label={t('cart.decrease', { name: line.name })}
              disabled={line.quantity <= CART_MIN_QUANTITY}
              onClick={() => changeQuantity(line._id, -1, CART_MIN_QUANTITY)}
            >
              <span aria-hidden="true">−</span>
            </button>
            <output className="quantity__value" aria-live="polite">
              {line.quantity}
            </output>
            <button
              type="button"
              className="quantity__step"
              aria-label={t('cart.increase', { name: line.name })}
              onClick={() => changeQuantity(line._id, 1, CART_MIN_QUANTITY)}
            >
              <span aria-hidden="true">+</span>
            </button>
          </div>
        )}
        <button
          type="button"
          className="button button--link cart-line__remove"
          aria-label={t('cart.remove_label', { name: line.name })}
          onClick={() => removeFromCart(line._id)}
        >
          {t('cart.remove')}
        </button>
      </div>
    </li>
  );
}
