// The audit trail: every staff write with who, when, what and the values before and after, newest first;
// filtered by action, searched by subject or staff member.
import { useT } from '@marque/i18n';
import { indiaDate, indiaDayEdge } from '../../lib/format';
import type { AuditRecord } from '../../lib/api/provisional';
import { when } from '../../lib/format';
import { AdminPage } from '../../lib/layout/Page';
import { DataTable, type Column } from '../../lib/table/DataTable';
import { useList } from '../../lib/table/use-list';

/** The actions staff writes record (`<area>.<verb>`). */
export const AUDIT_ACTIONS = [
  'product.create',
  'product.update',
  'product.unpublish',
  'category.create',
  'category.update',
  'brand.create',
  'brand.update',
  'photo.add',
  'photo.reorder',
  'photo.remove',
  'stock.adjust',
  'offer.set',
  'offer.end',
  'staff.invite',
  'staff.setup',
  'staff.remove',
] as const;

/** The changed fields as JSON, one a line (the server sends an object, or its text). */
function Values({ value }: { value: unknown }) {
  if (value === null || value === undefined || value === '') return null;
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      // Not JSON: shown as it came.
    }
  }
  return <pre className="admin-values">{typeof parsed === 'string' ? parsed : JSON.stringify(parsed, null, 1)}</pre>;
}

export function AuditPage() {
  const t = useT('admin');
  const list = useList('GET /api/admin/audit', { filters: ['action', 'from', 'until'], searchKey: 'subject' });
  const day = (key: 'from' | 'until') => (list.filters[key] ? indiaDate(Number(list.filters[key])) : '');
  const columns: Column<AuditRecord>[] = [
    { key: 'at', label: t('audit.at'), cell: (r) => when(r.at) },
    { key: 'actor', label: t('audit.actor'), cell: (r) => r.actorLabel ?? r.actor },
    { key: 'action', label: t('audit.action'), cell: (r) => r.action },
    { key: 'subject', label: t('audit.subject'), cell: (r) => r.subject },
    { key: 'before', label: t('audit.before'), cell: (r) => <Values value={r.before} /> },
    { key: 'after', label: t('audit.after'), cell: (r) => <Values value={r.after} /> },
  ];
  return (
    <AdminPage title={t('nav.audit')}>
      <div className="admin-form admin-form--inline">
        {(['from', 'until'] as const).map((key) => (
          <div key={key} className="admin-field">
            <label htmlFor={`audit-${key}`}>{t(`audit.${key}`)}</label>
            <input
              id={`audit-${key}`}
              type="date"
              value={day(key)}
              onChange={(e) => list.setFilters({ [key]: e.target.value ? String(indiaDayEdge(e.target.value, key === 'from' ? 'start' : 'end')) : '' })}
            />
          </div>
        ))}
      </div>
      <DataTable
        label={t('nav.audit')}
        columns={columns}
        rowKey={(r) => r._id ?? `${r.at}-${r.action}-${r.subject}`}
        searchKey="subject"
        filterControls={[{ key: 'action', label: t('audit.action'), options: AUDIT_ACTIONS.map((a) => ({ value: a, label: a })) }]}
        {...list}
      />
    </AdminPage>
  );
}
