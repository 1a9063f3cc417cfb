// One order: its status, shipment and timeline, and the next step it may take (confirm, pack, ship with a courier and
// an AWB, deliver), sent with the version it was read at so a change made meanwhile is refused, not overwritten; its
// refunds (a failed one retried), a refund of chosen lines, and cancelling it before it ships.
import { useT } from '@marque/i18n';
import { adminCall } from '../../lib/api/calls';
import type { AdminOrder } from '../../lib/api/types';
import { useAnswer } from '../../lib/api/use-answer';
import { Field, FormAlert, TextField } from '../../lib/form/Field';
import { AdminForm } from '../../lib/form/AdminForm';
import { useForm } from '../../lib/form/use-form';
import { when } from '../../lib/format';
import { AdminPage } from '../../lib/layout/Page';
import { CancelForm } from './CancelForm';
import { RefundForm } from './RefundForm';
import { NoticeList } from './NoticeList';
import { RefundList } from './RefundList';

/** The couriers the server knows, by slug. */
export const COURIERS = ['delhivery', 'bluedart', 'dtdc', 'indiapost', 'shiprocket', 'ekart', 'other'] as const;
const SHIPPED = 4;

function NextStep({ order, onSaved }: { order: AdminOrder; onSaved: (o: AdminOrder) => void }) {
  const t = useT('admin');
  const form = useForm(
    { courier: 'delhivery', awb: '', trackingUrl: '' },
    { 'order.courier_unknown': 'courier', 'order.awb_invalid': 'awb', 'order.tracking_url_invalid': 'trackingUrl', 'order.tracking_url_required': 'trackingUrl' },
  );
  const status = order.order.order_status;
  if (status >= 5) return null;
  const next = status + 1;
  const ships = next === SHIPPED;
  const { values, set, errors } = form;
  return (
    <section className="admin-panel" aria-labelledby="next-step">
      <h2 id="next-step">{t(`orders.move_${next}` as 'orders.move_2')}</h2>
      <AdminForm
        form={form}
        className="admin-form admin-form--inline"
        onSubmit={() =>
          form.submit(
            (v) =>
              adminCall('PATCH /api/admin/orders/{id}', {
                path: { id: order.order._id },
                headers: { 'If-Match': String(order.version) },
                body: ships
                  ? { status: next, courier: v.courier, awb: v.awb, ...(v.courier === 'other' ? { trackingUrl: v.trackingUrl } : {}) }
                  : { status: next },
              }),
            onSaved,
          )
        }
      >
        {ships ? (
          <>
            <Field id="order-courier" label={t('orders.courier')} error={errors.courier}>
              <select id="order-courier" value={values.courier} onChange={(e) => set('courier', e.target.value)}>
                {COURIERS.map((c) => (
                  <option key={c} value={c}>
                    {t(`orders.courier_${c}` as 'orders.courier_other')}
                  </option>
                ))}
              </select>
            </Field>
            <TextField id="order-awb" label={t('orders.awb')} value={values.awb} onChange={(v) => set('awb', v)} error={errors.awb} />
            {values.courier === 'other' ? (
              <TextField id="order-tracking" label={t('orders.tracking_url')} type="url" value={values.trackingUrl} onChange={(v) => set('trackingUrl', v)} error={errors.trackingUrl} />
            ) : null}
          </>
        ) : null}
        <button type="submit" className="button" disabled={form.busy}>
          {t(`orders.move_${next}` as 'orders.move_2')}
        </button>
      </AdminForm>
    </section>
  );
}

export function OrderPage({ id }: { id: string }) {
  const t = useT('admin');
  const { state, setState } = useAnswer('GET /api/admin/orders/{id}', { path: { id } });
  if (state.status === 'loading') return <div className="admin-waiting" aria-busy="true" />;
  if (state.status === 'failed') return <FormAlert message={state.message} />;
  const order = state.body;
  const status = (n: number) => t(`orders.status_${n}` as 'orders.status_1');
  return (
    <AdminPage title={order.order.orderNumber}>
      <dl className="admin-facts">
        <dt>{t('orders.status')}</dt>
        <dd>{status(order.order.order_status)}</dd>
        <dt>{t('orders.customer')}</dt>
        <dd>{order.order.user_name}</dd>
        <dt>{t('orders.shipment')}</dt>
        <dd>
          {order.shipment ? (
            <a href={order.shipment.trackingLink} target="_blank" rel="noopener noreferrer">
              {order.shipment.courierName} {order.shipment.awb}
            </a>
          ) : null}
        </dd>
      </dl>
      <NextStep order={order} onSaved={(updated) => setState({ status: 'done', body: updated })} />
      <RefundList order={order} onSaved={(updated) => setState({ status: 'done', body: updated })} />
      <RefundForm key={`refund-${order.refunds.length}`} order={order} onSaved={(updated) => setState({ status: 'done', body: updated })} />
      <CancelForm order={order} onSaved={(updated) => setState({ status: 'done', body: updated })} />
      <NoticeList key={`notices-${order.version}`} id={order.order._id} />
      <section className="admin-panel" aria-labelledby="timeline">
        <h2 id="timeline">{t('orders.timeline')}</h2>
        <ol>
          {order.timeline.map((e) => (
            <li key={`${e.at}-${e.status}-${e.action}`}>
              {when(e.at)} · {e.actorLabel} · {status(e.status)}
            </li>
          ))}
        </ol>
      </section>
    </AdminPage>
  );
}
