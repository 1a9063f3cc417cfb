// The full-screen image viewer: a modal dialog over the page. Esc or the close button closes it,
// arrow keys move between images, Tab stays inside, and focus returns to what opened it.
import { useT } from '@marque/i18n';
import { useModalDialog, webpSrcSet, type PictureRef } from '@marque/ui';
import { useRef, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';

export function ImageViewer({
  images,
  name,
  index,
  onIndex,
  onClose,
}: {
  images: ReadonlyArray<PictureRef>;
  name: string;
  index: number;
  onIndex: (index: number) => void;
  onClose: () => void;
}) {
  const t = useT('product');
  const closeButton = useRef<HTMLButtonElement>(null);
  const dialog = useModalDialog<HTMLDivElement>(onClose, closeButton);
  const count = images.length;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      event.preventDefault();
      onIndex((index + (event.key === 'ArrowLeft' ? -1 : 1) + count) % count);
    } else {
      dialog.onKeyDown(event);
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
        ref={dialog.ref}
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
          <button
            ref={closeButton}
            type="button"
            className="image-viewer__close"
            aria-label={t('viewer.close')} onClick={onClose}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
        {image ? (
          <img className="image-viewer__image" src={image.name} srcSet={webpSrcSet(image)} sizes="100vw" alt={name} />
        ) : null}
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
