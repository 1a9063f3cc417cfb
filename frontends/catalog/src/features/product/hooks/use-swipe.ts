// Horizontal swipes (finger, pen or mouse drag) over an element, through pointer events; the
// element's CSS leaves vertical panning to the browser (`touch-action: pan-y`).
import { useRef, type MouseEvent, type PointerEvent } from 'react';

/** How far a pointer must travel sideways to count as a swipe rather than a tap. */
export const SWIPE_MIN_PX = 40;

export function useSwipe({ onPrevious, onNext }: { onPrevious: () => void; onNext: () => void }) {
  const start = useRef<{ x: number; y: number } | null>(null);
  // A swipe ends with a click on whatever is under the pointer; that click must not count.
  const swiped = useRef(false);

  return {
    onPointerDown(event: PointerEvent<HTMLElement>) {
      if (event.pointerType === 'mouse' && event.button !== 0) return;
      start.current = { x: event.clientX, y: event.clientY };
      swiped.current = false;
    },
    onPointerUp(event: PointerEvent<HTMLElement>) {
      const from = start.current;
      start.current = null;
      if (!from) return;
      const dx = event.clientX - from.x;
      const dy = event.clientY - from.y;
      if (Math.abs(dx) < SWIPE_MIN_PX || Math.abs(dx) < Math.abs(dy)) return;
      swiped.current = true;
      if (dx < 0) onNext();
      else onPrevious();
    },
    onPointerCancel() {
      start.current = null;
    },
    onClickCapture(event: MouseEvent<HTMLElement>) {
      if (!swiped.current) return;
      swiped.current = false;
      event.preventDefault();
      event.stopPropagation();
    },
  };
}
