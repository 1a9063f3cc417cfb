// The returns customers asked for: newest first, filtered by state, each linked to its page.
import { useT } from '@marque/i18n';
import { Link } from 'wouter';
import type { AdminReturn } from '../../lib/api/types';
import { when } from '../../lib/format';
import { AdminPage } from '../../lib/layout/Page';
import { DataTable, type Column } from '../../lib/table/DataTable';
import { useList } from '../../lib/table/use-list';

/** A return's states, as the server names them. */
export const RETURN_STATES = ['requested', 'approved', 'refused', 'received', 'resolved'] as const;

export function ReturnsPage() {
  const t = useT('admin');
  const list = useList('GET /api/admin/returns', { filters: ['state'] });
  const state = (s: string) => t(`returns.state_${s}` as 'returns.state_requested');
  const columns: Column<AdminReturn>[] = [
    {
      key: 'order',
      label: t('returns.order'),
      cell: (r) => <Link href={`/admin/returns/${encodeURIComponent(r._id)}`}>{r.orderNumber}</Link>,
    },
    { key: 'part', label: t('returns.part'), cell: (r) => r.productName },
    { key: 'quantity', label: t('returns.quantity'), cell: (r) => String(r.quantity) },
    { key: 'asked', label: t('returns.asked'), cell: (r) => when(r.createdAt) },
    { key: 'state', label: t('returns.state'), cell: (r) => state(r.state) },
  ];
  return (
    <AdminPage title={t('nav.returns')}>
      <DataTable
        label={t('nav.returns')}
        columns={columns}
        rowKey={(r) => r._id}
        search={false}
        filterControls={[{ key: 'state', label: t('returns.state'), options: RETURN_STATES.map((s) => ({ value: s, label: state(s) })) }]}
        {...list}
      />
    </AdminPage>
  );
}
