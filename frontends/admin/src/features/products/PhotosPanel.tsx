// A product's photographs: upload several at once, move one earlier or later, remove one. The server answers each
// change with the product's pictures in their new order, each with the `_id` its removal names.
import type { FormFields } from '@marque/api-client';
import { useT } from '@marque/i18n';
import { useState } from 'react';
import { adminCall } from '../../lib/api/calls';
import type { AdminPhoto } from '../../lib/api/types';
import { FormAlert } from '../../lib/form/Field';
import { useMessageText } from '../../lib/form/messages';

/** The form field the upload's files travel in (repeated for several), as the document names it. */
export const PHOTO_FIELD: keyof FormFields<'POST /api/admin/products/{id}/photos'> = 'photos';

/** The narrowest rendition for the thumbnail (the address itself for a picture without variants). */
const thumbnailOf = (image: AdminPhoto) => image.variants[0]?.name ?? image.name;

type Props = { id: string; images: AdminPhoto[]; onChange: (images: AdminPhoto[]) => void };

export function PhotosPanel({ id, images, onChange }: Props) {
  const t = useT('admin');
  const messageText = useMessageText();
  const [busy, setBusy] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);

  const run = async (change: () => ReturnType<typeof adminCall<'DELETE /api/admin/products/{id}/photos/{photoId}'>>) => {
    setBusy(true);
    setAlert(null);
    try {
      const answer = await change();
      if (answer.ok) onChange(answer.body.images);
      else setAlert(messageText(answer.code, answer.message));
    } finally {
      setBusy(false);
    }
  };

  const upload = (files: FileList | null) => {
    if (!files || files.length === 0) return;
    const form = new FormData();
    for (const file of Array.from(files)) form.append(PHOTO_FIELD, file);
    void run(() => adminCall('POST /api/admin/products/{id}/photos', { path: { id }, body: form }));
  };

  const move = (from: number, to: number) => {
    const order = images.map((image) => image.name);
    const [moved] = order.splice(from, 1);
    if (moved === undefined) return;
    order.splice(to, 0, moved);
    void run(() => adminCall('PUT /api/admin/products/{id}/photos/order', { path: { id }, body: { names: order } }));
  };

  return (
    <section className="admin-panel" aria-labelledby="photos-title">
      <h2 id="photos-title">{t('photos.title')}</h2>
      <FormAlert message={alert} />
      {images.length === 0 ? <p>{t('photos.none')}</p> : null}
      <ol className="admin-photos">
        {images.map((image, index) => (
          <li key={image._id}>
            <img src={thumbnailOf(image)} alt={t('photos.alt', { n: index + 1 })} width={160} height={120} loading="lazy" />
            <div className="admin-photos__actions">
              <button type="button" className="button button--quiet" disabled={busy || index === 0} onClick={() => move(index, index - 1)} aria-label={t('photos.earlier', { n: index + 1 })}>
                ↑
              </button>
              <button
                type="button"
                className="button button--quiet"
                disabled={busy || index === images.length - 1}
                onClick={() => move(index, index + 1)}
                aria-label={t('photos.later', { n: index + 1 })}
              >
                ↓
              </button>
              <button
                type="button"
                className="button button--quiet"
                disabled={busy}
                onClick={() => void run(() => adminCall('DELETE /api/admin/products/{id}/photos/{photoId}', { path: { id, photoId: image._id } }))}
              >
                {t('photos.remove')}
              </button>
            </div>
          </li>
        ))}
      </ol>
      <label className="button button--quiet" htmlFor="photos-upload">
        {t('photos.add')}
      </label>
      <input
        id="photos-upload"
        className="visually-hidden"
        type="file"
        accept="image/jpeg,image/png,image/webp,image/heic"
        multiple
        disabled={busy}
        onChange={(event) => {
          upload(event.target.files);
          event.target.value = '';
        }}
      />
      {busy ? <p role="status">{t('photos.working')}</p> : null}
    </section>
  );
}
