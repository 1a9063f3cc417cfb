// What every modal dialog of the shop does (the image viewer, the filter drawer, the cart panel, confirmations):
// Tab and Shift+Tab stay inside, Esc closes, the page behind does not scroll, and focus goes back to the opener.
import { useEffect, useRef, type KeyboardEvent as ReactKeyboardEvent, type RefObject } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The controls Tab can reach inside `container` (hidden parts left out). */
export function focusableIn(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.closest('[hidden]'));
}

/** Keeps Tab inside `container`: from the last control to the first and back. */
export function keepTabInside(container: HTMLElement | null, event: ReactKeyboardEvent | KeyboardEvent) {
  if (event.key !== 'Tab' || !container) return;
  const focusable = focusableIn(container);
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * For a dialog rendered only while open: focuses `initialFocus` (else the first control) on opening,
 * locks the page's scrolling, and on closing gives focus back to what had it. Spread `onKeyDown` on the dialog.
 */
export function useModalDialog<T extends HTMLElement>(
  onClose: () => void,
  initialFocus?: RefObject<HTMLElement | null>,
): { ref: RefObject<T | null>; onKeyDown: (event: ReactKeyboardEvent) => void } {
  const ref = useRef<T>(null);
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    (initialFocus?.current ?? (ref.current ? focusableIn(ref.current)[0] : undefined))?.focus();
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
      opener?.focus();
    };
    // Opening and closing only: the dialog mounts when it opens.
  }, []);
  const onKeyDown = (event: ReactKeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
      return;
    }
    keepTabInside(ref.current, event);
  };
  return { ref, onKeyDown };
}
