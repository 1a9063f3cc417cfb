// The wishlist heart comes from the account remote (absent when that remote is down).
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
  return <RemotePiece id="account/WishlistHeart" props={props} />;
}

/** For product lists: the heart of a card. */
export function cardHeart(product: HeartProduct) {
  return <WishlistHeartSlot product={product} place="card" />;
}

/** For tests: forget the loaded heart. */
export const forgetHeart = forgetRemotePieces;
