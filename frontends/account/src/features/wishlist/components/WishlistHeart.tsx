// The wishlist heart on product cards ('card') and the product page ('detail'): filled when the
// product is in the wishlist (a click removes it), outline when not (a click adds it). Visitors and
// a full wishlist get the message of the heart's place, in the page. How it looks is @marque/ui's HeartButton.
import { MESSAGES, type MessageCode } from '@marque/rules';
import { setWished, useSession, useWished } from '@marque/session';
import { HEART_MESSAGES, HeartButton, type HeartPlace } from '@marque/ui';
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

/**
 * What the heart says when an add is refused: 'full' only when the wishlist is full; any other
 * refusal (a product gone, too many calls, an outage) its own message, or the generic one.
 */
function refusal(answer: { status: number; message: string | null; code?: string }, place: HeartPlace): MessageCode {
  if (answer.code === 'wishlist.full') return HEART_MESSAGES[place].full;
  console.error('[marque] the wishlist refused or could not be reached', answer.status, answer.message);
  return answer.code !== undefined && Object.hasOwn(MESSAGES, answer.code) ? (answer.code as MessageCode) : 'common.unknown';
}

export function WishlistHeart({ product, place }: { product: HeartProduct; place: HeartPlace }) {
  const { status, user } = useSession();
  const wished = useWished(product._id);
  const [problem, setProblem] = useState<MessageCode | null>(null);
  const [busy, setBusy] = useState(false);

  const toggle = async () => {
    if (busy || status === 'restoring') return;
    if (status !== 'authenticated' || !user) {
      setProblem(HEART_MESSAGES[place].login);
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
      else setProblem(refusal(answer, place));
    } finally {
      setBusy(false);
    }
  };

  return <HeartButton name={product.name} place={place} wished={wished} problem={problem} onToggle={() => void toggle()} />;
}
