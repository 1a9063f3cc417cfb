// The product's pictures: one large image and a row of thumbnails to switch between them.
import { useState } from 'react';

export function ImageGallery({ images, name }: { images: ReadonlyArray<{ name: string }>; name: string }) {
  const [current, setCurrent] = useState(0);
  const shown = images[current] ?? images[0];
  if (!shown) return <div className="gallery gallery--empty" aria-hidden="true" />;
  return (
    <div className="gallery">
      <img className="gallery__main" src={shown.name} alt={name} width={640} height={480} />
      {images.length > 1 ? (
        <ul className="gallery__thumbs">
          {images.map((image, index) => (
            <li key={`${index}-${image.name}`}>
              <button
                type="button"
                className="gallery__thumb"
                aria-label={`Show image ${index + 1} of ${images.length}`}
                aria-pressed={index === current}
                onClick={() => setCurrent(index)}
              >
                <img src={image.name} alt="" width={80} height={60} loading="lazy" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
