// The wishlist heart comes from the account remote (absent when that remote is down). A visitor who is not
// logged in gets the same heart drawn here, whose only answer is the login message: the account remote is then
// not loaded at all (it weighs ~11 KB gzip on the home page's budget).
import { useSession } from '@marque/session';
import { HEART_MESSAGES, HeartButton } from '@marque/ui';
import type { MessageCode } from '@marque/rules';
import { useState } from 'react';
import { forgetRemotePieces, RemotePiece } from './remote-piece';

export type HeartProduct = {
  _id: string;
  name: string;
  price: number;
  quantity: number;
  producttype: string;
  images?: ReadonlyArray<{ name: string }>;
};
export type HeartProps = { product: HeartProduct; place: 'card' | 'detail' };

export function WishlistHeartSlot(props: HeartProps) {
  const { status } = useSession();
  return status === 'anonymous' ? <VisitorHeart {...props} /> : <RemotePiece id="account/WishlistHeart" props={props} />;
}

function VisitorHeart({ product, place }: HeartProps) {
  const [problem, setProblem] = useState<MessageCode | null>(null);
  return (
    <HeartButton
      name={product.name}
      place={place}
      wished={false}
      problem={problem}
      onToggle={() => setProblem(HEART_MESSAGES[place].login)}
    />
  );
}

/** For product lists: the heart of a card. */
export function cardHeart(product: HeartProduct) {
  return <WishlistHeartSlot product={product} place="card" />;
}

/** For tests: forget the loaded heart. */
export const forgetHeart = forgetRemotePieces;
