// Low stock: the products at or under their threshold, each linking to its page (history and adjustments), with
// its threshold editable here.
import { useT } from '@marque/i18n';
import { Link } from 'wouter';
import { adminCall } from '../../lib/api/calls';
import type { AdminLowStockItem } from '../../lib/api/types';
import { TextField } from '../../lib/form/Field';
import { AdminForm } from '../../lib/form/AdminForm';
import { useForm } from '../../lib/form/use-form';
import { AdminPage } from '../../lib/layout/Page';
import { DataTable, type Column } from '../../lib/table/DataTable';
import { useList } from '../../lib/table/use-list';

function ThresholdForm({ item, onSaved }: { item: AdminLowStockItem; onSaved: () => void }) {
  const t = useT('admin');
  const form = useForm({ threshold: String(item.threshold) }, { 'stock.threshold_invalid': 'threshold' });
  return (
    <AdminForm
      form={form}
      className="admin-form admin-form--inline"
      onSubmit={() =>
        form.submit(
          (v) => adminCall('PUT /api/admin/products/{id}/stock/threshold', { path: { id: item._id }, body: { threshold: Number(v.threshold) } }),
          onSaved,
        )
      }
    >
      <TextField
        id={`threshold-${item._id}`}
        label={t('stock.threshold')}
        inputMode="numeric"
        value={form.values.threshold}
        onChange={(v) => form.set('threshold', v)}
        error={form.errors.threshold}
      />
      <button type="submit" className="button button--quiet" disabled={form.busy || !/^\d+$/.test(form.values.threshold)}>
        {t('save')}
      </button>
    </AdminForm>
  );
}

export function StockPage() {
  const t = useT('admin');
  const list = useList('GET /api/admin/stock/low');
  const columns: Column<AdminLowStockItem>[] = [
    { key: 'name', label: t('product.name'), cell: (p) => <Link href={`/admin/products/${encodeURIComponent(p._id)}`}>{p.name}</Link> },
    { key: 'quantity', label: t('product.quantity'), cell: (p) => p.quantity },
    { key: 'threshold', label: t('stock.threshold'), cell: (p) => <ThresholdForm item={p} onSaved={list.reload} /> },
  ];
  return (
    <AdminPage title={t('stock.low_title')}>
      <p>{t('stock.low_text')}</p>
      <DataTable label={t('stock.low_title')} columns={columns} rowKey={(p) => p._id} search={false} {...list} />
    </AdminPage>
  );
}
