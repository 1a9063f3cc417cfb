// Whether the page's first frame is on screen. What the first frame does not need (pictures further down a list,
// pieces of other remotes) is asked for after it, so it never competes with what the page paints first.
import { useSyncExternalStore } from 'react';

let painted = false;
let first: Promise<void> | null = null;

/** Resolves once the page's first frame has been painted (at once ever after). */
export function firstPaint(): Promise<void> {
  first ??= new Promise<void>((resolve) => {
    const done = () => {
      painted = true;
      resolve();
    };
    // A frame's rAF callbacks run just before it is painted; a task queued from there runs after it.
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(done, 0));
    else setTimeout(done, 0);
  });
  return first;
}

function subscribe(listener: () => void): () => void {
  let live = true;
  void firstPaint().then(() => {
    if (live) listener();
  });
  return () => {
    live = false;
  };
}

/** False during the page's first render, true once its first frame has been painted (and ever after). */
export function useFirstPaintDone(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => painted,
    () => false,
  );
}
