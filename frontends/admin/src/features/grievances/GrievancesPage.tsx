// The grievance tickets: newest first, filtered by state, each with its 48-hour acknowledgement and one-month
// resolution clocks, and flagged when one has run out.
import { useT } from '@marque/i18n';
import { Link } from 'wouter';
import type { AdminGrievance } from '../../lib/api/types';
import { when } from '../../lib/format';
import { AdminPage } from '../../lib/layout/Page';
import { DataTable, type Column } from '../../lib/table/DataTable';
import { useList } from '../../lib/table/use-list';

/** A ticket's states, as the server names them. */
export const GRIEVANCE_STATES = ['open', 'acknowledged', 'resolved'] as const;

export function GrievancesPage() {
  const t = useT('admin');
  const list = useList('GET /api/admin/grievances', { filters: ['state'] });
  const state = (s: string) => t(`grievances.state_${s}` as 'grievances.state_open');
  const columns: Column<AdminGrievance>[] = [
    {
      key: 'number',
      label: t('grievances.number'),
      cell: (r) => <Link href={`/admin/grievances/${encodeURIComponent(r._id)}`}>{r.number}</Link>,
    },
    { key: 'received', label: t('grievances.received'), cell: (r) => when(r.createdAt) },
    { key: 'from', label: t('grievances.from'), cell: (r) => `${r.name} · ${r.mobile}` },
    { key: 'state', label: t('grievances.state'), cell: (r) => state(r.state) },
    { key: 'ack', label: t('grievances.acknowledge_by'), cell: (r) => when(r.acknowledgeBy) },
    { key: 'resolve', label: t('grievances.resolve_by'), cell: (r) => when(r.resolveBy) },
    {
      key: 'overdue',
      label: t('grievances.clock'),
      cell: (r) => (r.overdue ? <strong className="admin-overdue">{t('grievances.overdue')}</strong> : t('grievances.on_time')),
    },
  ];
  return (
    <AdminPage title={t('nav.grievances')}>
      <DataTable
        label={t('nav.grievances')}
        columns={columns}
        rowKey={(r) => r._id}
        search={false}
        filterControls={[
          { key: 'state', label: t('grievances.state'), options: GRIEVANCE_STATES.map((s) => ({ value: s, label: state(s) })) },
        ]}
        {...list}
      />
    </AdminPage>
  );
}
