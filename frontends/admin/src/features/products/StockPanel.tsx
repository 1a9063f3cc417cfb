// A product's stock: the adjustment form (received, correction, damaged, returned, sold offline) and the ledger's
// history, newest first, each entry with who, when, why and the quantity before and after.
import { useT } from '@marque/i18n';
import { adminCall } from '../../lib/api/calls';
import type { AdminStockEntry } from '../../lib/api/types';
import { Field, TextField } from '../../lib/form/Field';
import { AdminForm } from '../../lib/form/AdminForm';
import { useForm } from '../../lib/form/use-form';
import { DataTable, type Column } from '../../lib/table/DataTable';
import { useList } from '../../lib/table/use-list';
import { when } from '../../lib/format';

/** The reasons staff choose; the others (opening, import, reservations, sales) are the system's. */
export const ADJUSTMENT_REASONS = ['received', 'correction', 'damaged', 'returned', 'sold_offline'] as const;

/** The refusals of an adjustment, by the field each is about. */
const STOCK_FIELD_CODES = {
  'stock.delta_zero': 'delta',
  'stock.delta_too_large': 'delta',
  'stock.delta_must_add': 'delta',
  'stock.delta_must_take': 'delta',
  'stock.below_zero': 'delta',
  'stock.reason_unknown': 'reason',
  'stock.note_too_long': 'note',
} as const;

export function StockPanel({ id }: { id: string }) {
  const t = useT('admin');
  const list = useList('GET /api/admin/products/{id}/stock', { path: { id } });
  const form = useForm({ delta: '', reason: 'received', note: '' }, STOCK_FIELD_CODES);
  const { values, set, errors } = form;
  const columns: Column<AdminStockEntry>[] = [
    { key: 'at', label: t('stock.at'), cell: (e) => when(e.at) },
    { key: 'reason', label: t('stock.reason'), cell: (e) => t(`reason.${e.reason}` as 'reason.received') },
    { key: 'delta', label: t('stock.delta'), cell: (e) => (e.delta > 0 ? `+${e.delta}` : String(e.delta)) },
    { key: 'after', label: t('stock.before_after'), cell: (e) => `${e.before} → ${e.after}` },
    { key: 'actor', label: t('stock.actor'), cell: (e) => e.actorLabel },
    { key: 'note', label: t('stock.note'), cell: (e) => e.note ?? '' },
  ];
  return (
    <section className="admin-panel" aria-labelledby="stock-title">
      <h2 id="stock-title">{t('stock.title')}</h2>
      <AdminForm
        form={form}
        className="admin-form admin-form--inline"
        onSubmit={() =>
          form.submit(
            (v) =>
              adminCall('POST /api/admin/products/{id}/stock', {
                path: { id },
                body: { delta: Number(v.delta), reason: v.reason, ...(v.note.trim() ? { note: v.note.trim() } : {}) },
              }),
            () => {
              form.setValues({ delta: '', reason: values.reason, note: '' });
              list.reload();
            },
          )
        }
      >
        <TextField id="stock-delta" label={t('stock.delta')} hint={t('stock.delta_hint')} inputMode="numeric" value={values.delta} onChange={(v) => set('delta', v)} error={errors.delta} />
        <Field id="stock-reason" label={t('stock.reason')} error={errors.reason}>
          <select id="stock-reason" value={values.reason} onChange={(e) => set('reason', e.target.value)}>
            {ADJUSTMENT_REASONS.map((reason) => (
              <option key={reason} value={reason}>
                {t(`reason.${reason}`)}
              </option>
            ))}
          </select>
        </Field>
        <TextField id="stock-note" label={t('stock.note')} value={values.note} onChange={(v) => set('note', v)} error={errors.note} />
        <button type="submit" className="button" disabled={form.busy || !/^-?\d+$/.test(values.delta.trim()) || Number(values.delta) === 0}>
          {t('stock.record')}
        </button>
      </AdminForm>
      <DataTable label={t('stock.history')} columns={columns} rowKey={(e) => e._id} search={false} {...list} />
    </section>
  );
}
