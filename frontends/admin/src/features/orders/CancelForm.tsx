// Cancelling an order before it ships: a reason and whether the parts go back into stock, sent with the version the
// page read; the server refunds everything not refunded yet.
import { useT } from '@marque/i18n';
import { adminCall } from '../../lib/api/calls';
import type { AdminOrder } from '../../lib/api/types';
import { Field, TextField } from '../../lib/form/Field';
import { AdminForm } from '../../lib/form/AdminForm';
import { useForm } from '../../lib/form/use-form';

/** The statuses an order may be cancelled from: placed, confirmed, packed. */
const CANCELLABLE = 3;

export function CancelForm({ order, onSaved }: { order: AdminOrder; onSaved: (o: AdminOrder) => void }) {
  const t = useT('admin');
  const form = useForm({ reason: '', restock: true }, { 'refund.reason_invalid': 'reason' });
  if (order.order.order_status > CANCELLABLE) return null;
  const { values, set, errors } = form;
  return (
    <section className="admin-panel" aria-labelledby="cancel-order">
      <h2 id="cancel-order">{t('orders.cancel_title')}</h2>
      <AdminForm
        form={form}
        className="admin-form"
        onSubmit={() =>
          form.submit(
            (v) =>
              adminCall('POST /api/admin/orders/{id}/cancel', {
                path: { id: order.order._id },
                headers: { 'If-Match': String(order.version) },
                body: { reason: v.reason, restock: v.restock },
              }),
            (done) => onSaved(done.order),
          )
        }
      >
        <TextField id="cancel-reason" label={t('orders.reason')} value={values.reason} onChange={(v) => set('reason', v)} error={errors.reason} />
        <Field id="cancel-restock" label={t('orders.restock')}>
          <input id="cancel-restock" type="checkbox" checked={values.restock} onChange={(e) => set('restock', e.target.checked)} />
        </Field>
        <button type="submit" className="button button--danger" disabled={form.busy}>
          {t('orders.cancel')}
        </button>
      </AdminForm>
    </section>
  );
}
