// A partial refund: how many units of each line (at most those left), restock or not and a reason each, the delivery
// charge or not, and the refund's reason. Each filled form is sent under one Idempotency-Key, so a double click or a
// retried request is answered with the same refund, never a second one.
import { useT } from '@marque/i18n';
import { formatRupees } from '@marque/ui';
import { useState } from 'react';
import { adminCall } from '../../lib/api/calls';
import type { AdminOrder } from '../../lib/api/types';
import { Field, TextField } from '../../lib/form/Field';
import { AdminForm } from '../../lib/form/AdminForm';
import { useForm } from '../../lib/form/use-form';

type LineChoice = { quantity: string; restock: boolean; reason: string };
type Choices = { lines: Record<string, LineChoice>; deliveryCharge: boolean; reason: string };

/** A key for one refund request (letters, digits and dashes, as the server asks). */
function newKey(): string {
  return `refund-${crypto.randomUUID()}`;
}

export function RefundForm({ order, onSaved }: { order: AdminOrder; onSaved: (o: AdminOrder) => void }) {
  const t = useT('admin');
  const left = order.refundable.lines.filter((l) => l.left > 0);
  const blank = (): Choices => ({
    lines: Object.fromEntries(left.map((l) => [l.productId, { quantity: '0', restock: true, reason: '' }])),
    deliveryCharge: false,
    reason: '',
  });
  const form = useForm<Choices>(blank(), { 'refund.reason_invalid': 'reason' });
  const [key, setKey] = useState(newKey);
  if (left.length === 0 && !order.refundable.deliveryCharge) return null;
  const { values, set, errors } = form;
  const line = (product: string, change: Partial<LineChoice>) => {
    const now: LineChoice = values.lines[product] ?? { quantity: '0', restock: true, reason: '' };
    set('lines', { ...values.lines, [product]: { ...now, ...change } });
  };
  return (
    <section className="admin-panel" aria-labelledby="refund-order">
      <h2 id="refund-order">{t('orders.refund_title')}</h2>
      <p>
        {t('orders.refundable')}: {formatRupees(order.refundable.amount)}
      </p>
      <AdminForm
        form={form}
        className="admin-form"
        onSubmit={() =>
          form.submit(
            (v) =>
              adminCall('POST /api/admin/orders/{id}/refunds', {
                path: { id: order.order._id },
                headers: { 'Idempotency-Key': key },
                body: {
                  lines: Object.entries(v.lines)
                    .filter(([, c]) => Number(c.quantity) !== 0)
                    .map(([productId, c]) => ({
                      productId,
                      quantity: Number(c.quantity),
                      restock: c.restock,
                      ...(c.reason.trim() ? { reason: c.reason } : {}),
                    })),
                  deliveryCharge: v.deliveryCharge,
                  reason: v.reason,
                },
              }),
            (done) => {
              setKey(newKey());
              onSaved(done.order);
            },
          )
        }
      >
        {left.map((l) => (
          <fieldset key={l.productId}>
            <legend>{l.name}</legend>
            <TextField
              id={`refund-qty-${l.productId}`}
              label={`${t('orders.quantity')} (≤ ${l.left})`}
              type="number"
              inputMode="numeric"
              value={values.lines[l.productId]?.quantity ?? '0'}
              onChange={(v) => line(l.productId, { quantity: v })}
            />
            <Field id={`refund-restock-${l.productId}`} label={t('orders.restock')}>
              <input
                id={`refund-restock-${l.productId}`}
                type="checkbox"
                checked={values.lines[l.productId]?.restock ?? true}
                onChange={(e) => line(l.productId, { restock: e.target.checked })}
              />
            </Field>
            <TextField
              id={`refund-line-reason-${l.productId}`}
              label={t('orders.line_reason')}
              value={values.lines[l.productId]?.reason ?? ''}
              onChange={(v) => line(l.productId, { reason: v })}
            />
          </fieldset>
        ))}
        {order.refundable.deliveryCharge ? (
          <Field id="refund-delivery" label={t('orders.refund_delivery')}>
            <input id="refund-delivery" type="checkbox" checked={values.deliveryCharge} onChange={(e) => set('deliveryCharge', e.target.checked)} />
          </Field>
        ) : null}
        <TextField id="refund-reason" label={t('orders.reason')} value={values.reason} onChange={(v) => set('reason', v)} error={errors.reason} />
        <button type="submit" className="button" disabled={form.busy}>
          {t('orders.refund')}
        </button>
      </AdminForm>
    </section>
  );
}
