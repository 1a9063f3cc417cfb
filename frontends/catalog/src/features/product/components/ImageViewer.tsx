// The full-screen image viewer: a modal dialog over the page. Esc or the close button closes it,
// arrow keys move between images, Tab stays inside, and focus returns to what opened it.
import { useT } from '@marque/i18n';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';

const FOCUSABLE = 'button:not([disabled]), [href], input, select, textarea, [tabindex]:not([tabindex="-1"])';

export function ImageViewer({
  images,
  name,
  index,
  onIndex,
  onClose,
}: {
  images: ReadonlyArray<{ name: string }>;
  name: string;
  index: number;
  onIndex: (index: number) => void;
  onClose: () => void;
}) {
  const t = useT('product');
  const dialog = useRef<HTMLDivElement>(null);
  const count = images.length;

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.current?.querySelector<HTMLElement>('.image-viewer__close')?.focus();
    // The page behind does not scroll while the viewer covers it.
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
      opener?.focus();
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
    } else if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      event.preventDefault();
      onIndex((index + (event.key === 'ArrowLeft' ? -1 : 1) + count) % count);
    } else if (event.key === 'Tab') {
      const focusable = Array.from(dialog.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? []);
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
  };

  const image = images[index] ?? images[0];
  return createPortal(
    <div
      className="image-viewer"
      onMouseDown={(event) => {
        // A press on the dark backdrop, not on the picture or a control, closes the viewer.
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-label={t('viewer.label', { name })}
        className="image-viewer__dialog"
        onKeyDown={onKeyDown}
      >
        <div className="image-viewer__bar">
          <p className="image-viewer__position" aria-live="polite">
            {t('gallery.position', { n: index + 1, count })}
          </p>
          <button type="button" className="image-viewer__close" aria-label={t('viewer.close')} onClick={onClose}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
        {image ? <img className="image-viewer__image" src={image.name} alt={name} /> : null}
        {count > 1 ? (
          <>
            <button
              type="button"
              className="image-viewer__step image-viewer__step--previous"
              aria-label={t('gallery.previous')}
              onClick={() => onIndex((index - 1 + count) % count)}
            >
              <span aria-hidden="true">‹</span>
            </button>
            <button
              type="button"
              className="image-viewer__step image-viewer__step--next"
              aria-label={t('gallery.next')}
              onClick={() => onIndex((index + 1) % count)}
            >
              <span aria-hidden="true">›</span>
            </button>
          </>
        ) : null}
      </div>
    </div>,
    document.body,
  );
}
