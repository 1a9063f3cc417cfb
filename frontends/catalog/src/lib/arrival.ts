// How a visitor reached a product page, carried in the browser history entry (history.state):
// the brand page's product links record "from this brand"; the product page's breadcrumb reads it.
// A fresh load, a shared link or a new tab carries nothing, and the breadcrumb follows the category.
import type { MouseEvent } from 'react';
import { useSyncExternalStore } from 'react';

/** The key inside history.state, so other state written by the router or the shell is left alone. */
export const ARRIVAL_STATE_KEY = 'marqueArrival';

export type BrandArrival = { from: 'brand'; slug: string; name: string };

/** The history state a product link from a brand page pushes. */
export function brandArrivalState(slug: string, name: string): Record<string, BrandArrival> {
  return { [ARRIVAL_STATE_KEY]: { from: 'brand', slug, name } };
}

/** The brand the visitor came from, if the history entry says so; anything malformed counts as nothing. */
export function brandArrivalFrom(state: unknown): BrandArrival | null {
  if (typeof state !== 'object' || state === null) return null;
  const arrival = (state as Record<string, unknown>)[ARRIVAL_STATE_KEY];
  if (typeof arrival !== 'object' || arrival === null) return null;
  const { from, slug, name } = arrival as Record<string, unknown>;
  return from === 'brand' && typeof slug === 'string' && slug !== '' && typeof name === 'string'
    ? { from, slug, name }
    : null;
}

// wouter's browser location fires these (it patches pushState/replaceState to announce them).
const HISTORY_EVENTS = ['popstate', 'pushState', 'replaceState'] as const;

function subscribe(onChange: () => void) {
  for (const type of HISTORY_EVENTS) addEventListener(type, onChange);
  return () => {
    for (const type of HISTORY_EVENTS) removeEventListener(type, onChange);
  };
}

/** The current history entry's state, re-rendering when it changes (wouter's own hook lives in a subpath we don't share). */
export function useHistoryState(): unknown {
  return useSyncExternalStore(
    subscribe,
    () => history.state as unknown,
    () => null,
  );
}

/**
 * A click handler (capture phase) for a region of product links: a plain left click on a link to
 * /product navigates there with `state`, instead of the link's own navigation. Clicks with a modifier
 * (new tab, new window) are left to the browser; the new tab then has no state and falls back.
 */
export function productLinksWithState(navigate: (to: string, options: { state: unknown }) => void, state: unknown) {
  return (event: MouseEvent<HTMLElement>) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.ctrlKey || event.metaKey || event.altKey || event.shiftKey) return;
    const link = (event.target as Element | null)?.closest?.('a[href]');
    const href = link?.getAttribute('href') ?? '';
    if (!link || !event.currentTarget.contains(link) || !href.startsWith('/product?')) return;
    if (link.getAttribute('target') && link.getAttribute('target') !== '_self') return;
    // The link's own handler sees defaultPrevented and stands aside.
    event.preventDefault();
    navigate(href, { state });
  };
}
