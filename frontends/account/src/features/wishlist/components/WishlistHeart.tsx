// The wishlist heart on product cards ('card') and the product page ('detail'): filled when the
// product is in the wishlist (a click removes it), outline when not (a click adds it). Visitors and
// a full wishlist get the message of the heart's place, in the page.
import { useT } from '@marque/i18n';
import type { MessageCode } from '@marque/rules';
import { setWished, useSession, useWished } from '@marque/session';
import { useState } from 'react';
import { addToWishlist } from '../api/add-to-wishlist';
import { removeFromWishlist } from '../api/remove-from-wishlist';

export type HeartProduct = {
  _id: string;
  name: string;
  price: number;
  quantity: number;
  producttype: string;
  images?: ReadonlyArray<{ name: string }>;
  image?: string;
};

export type HeartPlace = 'card' | 'detail';

/** Each place keeps its own reading of the specification's two messages (PRODUCT_RULES.md). */
const MESSAGES_BY_PLACE: Record<HeartPlace, { login: MessageCode; full: MessageCode }> = {
  card: { login: 'wishlist.login_required', full: 'wishlist.full' },
  detail: { login: 'wishlist.login_alert', full: 'wishlist.full_alert' },
};

export function WishlistHeart({ product, place }: { product: HeartProduct; place: HeartPlace }) {
  const t = useT('account');
  const messages = useT('messages');
  const { status, user } = useSession();
  const wished = useWished(product._id);
  const [problem, setProblem] = useState<MessageCode | null>(null);
  const [busy, setBusy] = useState(false);

  const toggle = async () => {
    if (busy || status === 'restoring') return;
    if (status !== 'authenticated' || !user) {
      setProblem(MESSAGES_BY_PLACE[place].login);
      return;
    }
    setProblem(null);
    setBusy(true);
    try {
      if (wished) {
        const answer = await removeFromWishlist(product._id);
        if (answer.ok) setWished(product._id, false);
        else console.error('[marque] the wishlist entry could not be removed', answer.message);
        return;
      }
      const answer = await addToWishlist({
        _id: product._id,
        name: product.name,
        quantity: product.quantity,
        producttype: product.producttype,
        price: product.price,
        image: product.image ?? product.images?.[0]?.name ?? '',
        user_id: user._id,
      });
      if (answer.ok) setWished(product._id, true);
      // The only refusal the API gives for a valid product is a full wishlist.
      else if (answer.message !== null) setProblem(MESSAGES_BY_PLACE[place].full);
      else console.error('[marque] the wishlist could not be reached');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className={`wishlist-heart wishlist-heart--${place}`}>
      <button
        type="button"
        className={wished ? 'wishlist-heart__button wishlist-heart__button--on' : 'wishlist-heart__button'}
        aria-label={wished ? t('heart.remove', { name: product.name }) : t('heart.add', { name: product.name })}
        onClick={(event) => {
          // A heart inside a card must not open the product.
          event.preventDefault();
          event.stopPropagation();
          void toggle();
        }}
      >
        <svg aria-hidden="true" width="24" height="24" viewBox="0 0 24 24">
          <path
            d="M12 21s-7.5-4.6-9.5-9.3C1.2 8.5 3.3 5 6.8 5c2.1 0 3.6 1.1 5.2 3 1.6-1.9 3.1-3 5.2-3 3.5 0 5.6 3.5 4.3 6.7C19.5 16.4 12 21 12 21z"
            fill={wished ? 'currentColor' : 'none'}
            stroke="currentColor"
            strokeWidth="2"
            strokeLinejoin="round"
          />
        </svg>
      </button>
      {problem ? (
        <p className="wishlist-heart__message" role="alert">
          {messages(problem)}
        </p>
      ) : null}
    </div>
  );
}
