// The orders: newest first, filtered by status and by where their refunds stand, and searched by order or invoice
// number, or a customer's email or mobile, with how many orders the search finds at each status.
import { useT } from '@marque/i18n';
import { Link } from 'wouter';
import { formatRupees } from '@marque/ui';
import type { AdminOrderList, AdminOrderSummary } from '../../lib/api/types';
import { when } from '../../lib/format';
import { AdminPage } from '../../lib/layout/Page';
import { DataTable, type Column } from '../../lib/table/DataTable';
import { useList } from '../../lib/table/use-list';

/** The statuses an order moves through, by their number (1–6), as the server names them. */
export const ORDER_STATUSES = [1, 2, 3, 4, 5, 6] as const;
const COUNT_KEYS = ['placed', 'confirmed', 'packed', 'shipped', 'delivered', 'cancelled'] as const;
/** Where an order's refunds may stand, as the list's `refunds` filter names it. */
export const REFUND_FILTERS = ['none', 'partial', 'full', 'open', 'failed'] as const;

export function OrdersPage() {
  const t = useT('admin');
  const list = useList('GET /api/admin/orders', { filters: ['status', 'refunds'], searchKey: 'search' });
  const counts = list.state.status === 'done' ? (list.state.page as AdminOrderList).counts : null;
  const status = (n: number) => t(`orders.status_${n}` as 'orders.status_1');
  const columns: Column<AdminOrderSummary>[] = [
    { key: 'number', label: t('orders.id'), cell: (r) => <Link href={`/admin/orders/${encodeURIComponent(r._id)}`}>{r.orderNumber}</Link> },
    { key: 'invoice', label: t('orders.invoice'), cell: (r) => r.invoiceNumber },
    { key: 'placed', label: t('orders.at'), cell: (r) => when(r.createdAt) },
    { key: 'customer', label: t('orders.customer'), cell: (r) => `${r.userName} · ${r.mobileNo}` },
    { key: 'total', label: t('orders.total'), cell: (r) => formatRupees(r.total) },
    { key: 'status', label: t('orders.status'), cell: (r) => status(r.status) },
    { key: 'awb', label: t('orders.shipment'), cell: (r) => (r.shipment ? `${r.shipment.courierName} ${r.shipment.awb}` : '') },
  ];
  return (
    <AdminPage title={t('nav.orders')}>
      {counts ? (
        <ul className="admin-counts" aria-label={t('orders.counts')}>
          {COUNT_KEYS.map((key, i) => (
            <li key={key}>
              {status(i + 1)}: {counts[key]}
            </li>
          ))}
        </ul>
      ) : null}
      <DataTable
        label={t('nav.orders')}
        columns={columns}
        rowKey={(r) => r._id}
        searchKey="search"
        searchLabel={t('orders.search')}
        filterControls={[
          { key: 'status', label: t('orders.status'), options: ORDER_STATUSES.map((n) => ({ value: String(n), label: status(n) })) },
          {
            key: 'refunds',
            label: t('orders.refunds_filter'),
            options: REFUND_FILTERS.map((f) => ({ value: f, label: t(`orders.refunds_${f}` as 'orders.refunds_none') })),
          },
        ]}
        {...list}
      />
    </AdminPage>
  );
}
