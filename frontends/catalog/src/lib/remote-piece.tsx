// Pieces of other remotes shown inside catalog pages (the account remote's wishlist heart, the checkout
// remote's cart buttons), each loaded once and only when a page shows it. When that remote is down (or
// not composed), the piece is simply absent and the catalog works on.
import { getInstance } from '@module-federation/enhanced/runtime';
import { embeddedJson, ErrorBoundary, firstPaint } from '@marque/ui';
import { useEffect, useState, type ComponentType } from 'react';
import firstLoads from '../../../../contract/first-loads.json';

const COMPOSITION_URL = '/composition.json';
/** The composition the server embeds in every page (its id from contract/first-loads.json); /composition.json when a
 * page has none. */
const COMPOSITION_ELEMENT_ID = firstLoads.scripts.composition;

async function fetchComposition(): Promise<unknown> {
  const response = await fetch(COMPOSITION_URL, { cache: 'no-cache' });
  return response.ok ? ((await response.json()) as unknown) : {};
}
const pieces = new Map<string, Promise<ComponentType<never> | null>>();

async function load<P>(remote: string, id: string): Promise<ComponentType<P> | null> {
  // This remote's own federation instance; the shell registered the remotes on its instance, not on ours.
  const federation = getInstance();
  if (!federation) return null;
  if (!federation.options.remotes.some((known) => known.name === remote)) {
    const composition = (embeddedJson(COMPOSITION_ELEMENT_ID) ?? (await fetchComposition())) as Record<string, unknown>;
    const entry = composition[remote];
    if (typeof entry !== 'string' || entry === '') return null;
    federation.registerRemotes([{ name: remote, entry: new URL(entry, window.location.href).href }]);
  }
  const module = await federation.loadRemote<{ default: ComponentType<P> }>(id);
  return module?.default ?? null;
}

function piece<P>(id: string): Promise<ComponentType<P> | null> {
  let loaded = pieces.get(id);
  if (!loaded) {
    const remote = id.split('/', 1)[0] ?? '';
    loaded = load<P>(remote, id).catch((error: unknown) => {
      console.warn(`[marque] "${id}" is not available`, error);
      return null;
    }) as Promise<ComponentType<never> | null>;
    pieces.set(id, loaded);
  }
  return loaded as Promise<ComponentType<P> | null>;
}

/** Renders the default export of `id` (e.g. 'account/WishlistHeart') with `props`, or nothing until and unless it loads. */
export function RemotePiece<P extends object>({ id, props }: { id: string; props: P }) {
  const [Piece, setPiece] = useState<ComponentType<P> | null>(null);
  useEffect(() => {
    let live = true;
    // A piece's files are asked for once the page's first frame is on screen: small extras (a heart, a cart
    // button) must not compete with what the page paints first.
    void firstPaint()
      .then(() => (live ? piece<P>(id) : null))
      .then((component) => {
        if (live && component) setPiece(() => component);
      });
    return () => {
      live = false;
    };
  }, [id]);
  return Piece ? (
    <ErrorBoundary fallback={() => null} onError={(error) => console.error(`[marque] "${id}" failed`, error)}>
      <Piece {...props} />
    </ErrorBoundary>
  ) : null;
}

/** For tests: forget every loaded piece. */
export function forgetRemotePieces() {
  pieces.clear();
}
