// The product's pictures as a carousel: one large image, thumbnails, previous/next, arrow keys
// (while focus is in it) and swipes; the large image opens the full-screen viewer.
import { useT } from '@marque/i18n';
import { pictureAttributes, PRODUCT_SIZES, THUMB_SIZES, type PictureRef } from '@marque/ui';
import { lazy, Suspense, useState, type KeyboardEvent } from 'react';
import { useSwipe } from '../hooks/use-swipe';

// The full-screen viewer opens only on a click: its code loads then, not with the page.
const ImageViewer = lazy(() => import('./ImageViewer').then((m) => ({ default: m.ImageViewer })));

export function ImageGallery({ images, name }: { images: ReadonlyArray<PictureRef>; name: string }) {
  const t = useT('product');
  const [current, setCurrent] = useState(0);
  const [viewing, setViewing] = useState(false);
  const count = images.length;
  const step = (delta: number) => setCurrent((index) => (index + delta + count) % count);
  const swipe = useSwipe({ onPrevious: () => step(-1), onNext: () => step(1) });

  const shown = images[current] ?? images[0];
  if (!shown) return <div className="gallery gallery--empty" aria-hidden="true" />;

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    // The viewer (a portal, but still inside this tree) handles its own arrow keys first.
    if (event.defaultPrevented || count < 2 || (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight')) return;
    event.preventDefault();
    step(event.key === 'ArrowLeft' ? -1 : 1);
  };

  return (
    <section className="gallery" aria-roledescription="carousel" aria-label={t('gallery.label')} onKeyDown={onKeyDown}>
      <div className="gallery__stage" {...swipe}>
        <button
          type="button"
          className="gallery__open"
          aria-label={t('gallery.open', { n: current + 1, count })}
          onClick={() => setViewing(true)}
        >
          <img
            className="gallery__main"
            {...pictureAttributes(shown, PRODUCT_SIZES, { width: 640, height: 480 })}
            alt={name}
            fetchPriority="high"
            draggable={false}
          />
        </button>
        {count > 1 ? (
          <>
            <button
              type="button"
              className="gallery__step gallery__step--previous"
              aria-label={t('gallery.previous')}
              onClick={() => step(-1)}
            >
              <span aria-hidden="true">‹</span>
            </button>
            <button
              type="button"
              className="gallery__step gallery__step--next"
              aria-label={t('gallery.next')}
              onClick={() => step(1)}
            >
              <span aria-hidden="true">›</span>
            </button>
          </>
        ) : null}
      </div>
      <p className="visually-hidden" aria-live="polite">
        {t('gallery.position', { n: current + 1, count })}
      </p>
      {count > 1 ? (
        <ul className="gallery__thumbs">
          {images.map((image, index) => (
            <li key={`${index}-${image.name}`}>
              <button
                type="button"
                className="gallery__thumb"
                aria-label={t('gallery.show', { n: index + 1, count })}
                aria-pressed={index === current}
                onClick={() => setCurrent(index)}
              >
                <img {...pictureAttributes(image, THUMB_SIZES, { width: 80, height: 60 })} alt="" loading="lazy" draggable={false} />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {viewing ? (
        <Suspense fallback={null}>
          <ImageViewer images={images} name={name} index={current} onIndex={setCurrent} onClose={() => setViewing(false)} />
        </Suspense>
      ) : null}
    </section>
  );
}
