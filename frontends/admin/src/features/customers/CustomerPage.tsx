// One customer: who they are, their orders, and (for an owner) the offer form: a percentage from 1 to 90 until a
// date, inclusive, India time; or end the running offer.
import { useT } from '@marque/i18n';
import { formatRupees } from '@marque/ui';
import { Link } from 'wouter';
import { adminCall } from '../../lib/api/calls';
import type { Order } from '@marque/api-client';
import type { AdminCustomer, StaffMe } from '../../lib/api/types';
import { useAnswer } from '../../lib/api/use-answer';
import { TextField } from '../../lib/form/Field';
import { useMessageText } from '../../lib/form/messages';
import { AdminForm } from '../../lib/form/AdminForm';
import { useForm } from '../../lib/form/use-form';
import { when } from '../../lib/format';
import { AdminPage } from '../../lib/layout/Page';
import { mayUse } from '../../lib/session/areas';
import { DataTable, type Column } from '../../lib/table/DataTable';
import { useList } from '../../lib/table/use-list';
import { indiaToday, offerText } from './offer';

function OfferForm({ customer, onSaved }: { customer: AdminCustomer; onSaved: (c: AdminCustomer) => void }) {
  const t = useT('admin');
  const form = useForm(
    { percentage: customer.percentage > 0 ? String(customer.percentage) : '', endsOn: customer.endsOn ?? '' },
    { 'offer.percentage_range': 'percentage', 'offer.ends_on_invalid': 'endsOn', 'offer.ends_on_past': 'endsOn', 'offer.ends_on_too_far': 'endsOn' },
  );
  const { values, set, errors } = form;
  const percentage = Number(values.percentage);
  const valid = Number.isInteger(percentage) && percentage >= 1 && percentage <= 90 && /^\d{4}-\d{2}-\d{2}$/.test(values.endsOn);
  return (
    <section className="admin-panel" aria-labelledby="offer-title">
      <h2 id="offer-title">{t('offer.title')}</h2>
      <p>{offerText(t, customer)}</p>
      <AdminForm
        form={form}
        className="admin-form admin-form--inline"
        onSubmit={() =>
          form.submit(
            (v) => adminCall('PATCH /api/admin/customers/{id}/offer', { path: { id: customer._id }, body: { percentage: Number(v.percentage), endsOn: v.endsOn } }),
            onSaved,
          )
        }
      >
        <TextField id="offer-percentage" label={t('offer.percentage')} hint={t('offer.percentage_hint')} inputMode="numeric" value={values.percentage} onChange={(v) => set('percentage', v)} error={errors.percentage} />
        <TextField id="offer-endsOn" label={t('offer.ends_on')} hint={t('offer.ends_on_hint', { today: indiaToday() })} type="date" value={values.endsOn} onChange={(v) => set('endsOn', v)} error={errors.endsOn} />
        <button type="submit" className="button" disabled={form.busy || !valid}>
          {t('offer.set')}
        </button>
        {customer.offerExp > 0 ? (
          <button
            type="button"
            className="button button--quiet"
            disabled={form.busy}
            onClick={() =>
              void form.submit(
                () => adminCall('DELETE /api/admin/customers/{id}/offer', { path: { id: customer._id } }),
                onSaved,
              )
            }
          >
            {t('offer.end')}
          </button>
        ) : null}
      </AdminForm>
    </section>
  );
}

export function CustomerPage({ me, id }: { me: StaffMe; id: string }) {
  const t = useT('admin');
  const messageText = useMessageText();
  const customer = useAnswer('GET /api/admin/customers/{id}', { path: { id } });
  const orders = useList('GET /api/admin/customers/{id}/orders', { path: { id } });
  const columns: Column<Order>[] = [
    { key: 'id', label: t('orders.id'), cell: (o) => o.orderNumber || o._id },
    { key: 'at', label: t('orders.at'), cell: (o) => when(o.createdAt) },
    { key: 'status', label: t('orders.status'), cell: (o) => o.order_status_string },
    { key: 'total', label: t('orders.total'), cell: (o) => formatRupees(o.total) },
  ];
  if (customer.state.status === 'loading') return <p role="status">{t('status.loading')}</p>;
  if (customer.state.status === 'failed') {
    return (
      <p className="admin-alert admin-alert--error" role="alert">
        {messageText(customer.state.code, customer.state.message)}
      </p>
    );
  }
  const c = customer.state.body;
  return (
    <AdminPage title={c.name || c.email} actions={<Link href="/admin/customers">{t('customers.back')}</Link>}>
      <dl className="admin-facts">
        <dt>{t('field.email')}</dt>
        <dd>{c.email}</dd>
        <dt>{t('field.mobile')}</dt>
        <dd>{c.mobile}</dd>
      </dl>
      {mayUse(me, 'offers') ? (
        <OfferForm customer={c} onSaved={(next) => customer.setState({ status: 'done', body: next })} />
      ) : (
        <p>{offerText(t, c)}</p>
      )}
      <h2>{t('orders.title')}</h2>
      <DataTable label={t('orders.title')} columns={columns} rowKey={(o) => o._id} search={false} {...orders} />
    </AdminPage>
  );
}
