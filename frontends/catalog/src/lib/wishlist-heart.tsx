// The wishlist heart comes from the account remote, loaded once and only when a page shows a product.
// When the account remote is down (or not composed), the heart is simply absent and the catalog works on.
import { getInstance } from '@module-federation/enhanced/runtime';
import { ErrorBoundary } from '@marque/ui';
import { useEffect, useState, type ComponentType } from 'react';

export type HeartProduct = {
  _id: string;
  name: string;
  price: number;
  quantity: number;
  producttype: string;
  images?: ReadonlyArray<{ name: string }>;
};
export type HeartProps = { product: HeartProduct; place: 'card' | 'detail' };
type Heart = ComponentType<HeartProps>;

const COMPOSITION_URL = '/composition.json';
let heart: Promise<Heart | null> | null = null;

async function loadHeart(): Promise<Heart | null> {
  // This remote's own federation instance; the shell registered 'account' on its instance, not on ours.
  const federation = getInstance();
  if (!federation) return null;
  if (!federation.options.remotes.some((remote) => remote.name === 'account')) {
    const response = await fetch(COMPOSITION_URL, { cache: 'no-cache' });
    const composition = response.ok ? ((await response.json()) as Record<string, unknown>) : {};
    const entry = composition.account;
    if (typeof entry !== 'string' || entry === '') return null;
    federation.registerRemotes([{ name: 'account', entry: new URL(entry, window.location.href).href }]);
  }
  const module = await federation.loadRemote<{ default: Heart }>('account/WishlistHeart');
  return module?.default ?? null;
}

function accountHeart(): Promise<Heart | null> {
  heart ??= loadHeart().catch((error: unknown) => {
    console.warn('[marque] the wishlist heart is not available', error);
    return null;
  });
  return heart;
}

export function WishlistHeartSlot(props: HeartProps) {
  const [Heart, setHeart] = useState<Heart | null>(null);
  useEffect(() => {
    let live = true;
    void accountHeart().then((component) => {
      if (live && component) setHeart(() => component);
    });
    return () => {
      live = false;
    };
  }, []);
  return Heart ? (
    <ErrorBoundary fallback={() => null} onError={(error) => console.error('[marque] the wishlist heart failed', error)}>
      <Heart {...props} />
    </ErrorBoundary>
  ) : null;
}

/** For product lists: the heart of a card. */
export function cardHeart(product: HeartProduct) {
  return <WishlistHeartSlot product={product} place="card" />;
}

/** For tests: forget the loaded heart. */
export function forgetHeart() {
  heart = null;
}
