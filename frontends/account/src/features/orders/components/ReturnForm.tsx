// The form that asks to return units of one delivered line: how many, why, and up to three photos. The server judges
// the warranty window and the units left; its refusal is shown as it words it.
import { useT } from '@marque/i18n';
import { useState, type FormEvent } from 'react';
import { FormAlert } from '../../../lib/FormAlert';
import { MAX_RETURN_PHOTOS, requestReturn, type ProductReturn } from '../api/returns';

/** The refusals a return request answers with, read in the customer's language. */
const REFUSALS = [
  'return.reason_invalid',
  'return.quantity_invalid',
  'return.quantity_above_left',
  'return.unknown_line',
  'return.not_delivered',
  'return.window_closed',
  'return.too_many_photos',
  'return.photo_invalid',
  'return.unavailable',
  'order.not_found',
  'request.too_many',
] as const;

function refusal(code: string | undefined): (typeof REFUSALS)[number] | null {
  return REFUSALS.find((known) => known === code) ?? null;
}

type Props = {
  orderId: string;
  productId: string;
  name: string;
  /** Units bought: the most that can be asked for. */
  bought: number;
  onDone: (made: ProductReturn) => void;
  onCancel: () => void;
};

export function ReturnForm({ orderId, productId, name, bought, onDone, onCancel }: Props) {
  const t = useT('account');
  const messages = useT('messages');
  const [quantity, setQuantity] = useState(1);
  const [reason, setReason] = useState('');
  const [photos, setPhotos] = useState<File[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (photos.length > MAX_RETURN_PHOTOS) {
      setError(messages('return.too_many_photos'));
      return;
    }
    setBusy(true);
    const answer = await requestReturn({ orderId, productId, quantity, reason, photos });
    setBusy(false);
    if (answer.ok) onDone(answer.body);
    else {
      const known = refusal(answer.code);
      setError(known ? messages(known) : (answer.message ?? messages('return.unavailable')));
    }
  };

  return (
    <form className="return-form" aria-label={t('orders.return_title', { name })} onSubmit={(e) => void submit(e)}>
      <label>
        {t('orders.return_quantity')}
        <select value={quantity} onChange={(e) => setQuantity(Number(e.target.value))}>
          {Array.from({ length: Math.max(1, bought) }, (_, i) => i + 1).map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('orders.return_reason')}
        <textarea value={reason} maxLength={1000} required onChange={(e) => setReason(e.target.value)} />
      </label>
      <label>
        {t('orders.return_photos')}
        <input
          type="file"
          accept="image/jpeg,image/png,image/webp"
          multiple
          onChange={(e) => setPhotos(Array.from(e.target.files ?? []))}
        />
      </label>
      {error ? <FormAlert message={error} /> : null}
      <div className="return-form__actions">
        <button type="submit" className="button" disabled={busy}>
          {t('orders.return_submit')}
        </button>
        <button type="button" className="button button--quiet" onClick={onCancel}>
          {t('orders.return_cancel')}
        </button>
      </div>
    </form>
  );
}
