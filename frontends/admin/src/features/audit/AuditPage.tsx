// The audit trail: every staff write with who, when, what and the values before and after, newest first;
// filtered by action and days, searched by the record it concerns (`product:…`), each record linked to its page.
import { useT } from '@marque/i18n';
import { Link } from 'wouter';
import type { AdminAuditEntry } from '../../lib/api/types';
import { indiaDate, indiaDayEdge, when } from '../../lib/format';
import { AdminPage } from '../../lib/layout/Page';
import { DataTable, type Column } from '../../lib/table/DataTable';
import { useList } from '../../lib/table/use-list';

/** The actions staff writes record (`<area>.<verb>`). */
export const AUDIT_ACTIONS = [
  'product.create',
  'product.update',
  'product.unpublish',
  'product.publish',
  'category.create',
  'category.update',
  'brand.create',
  'brand.update',
  'photo.add',
  'photo.reorder',
  'photo.remove',
  'stock.adjust',
  'stock.threshold',
  'offer.set',
  'offer.end',
  'staff.invite',
  'staff.setup',
  'staff.remove',
] as const;

/** The back-office page of a record the trail names (`product:…`, `customer:…`), where there is one. */
const PAGE_OF_KIND: Record<string, string> = { product: '/admin/products/', customer: '/admin/customers/' };

function Subject({ subject }: { subject: string }) {
  const at = subject.indexOf(':');
  const page = at > 0 ? PAGE_OF_KIND[subject.slice(0, at)] : undefined;
  return page ? <Link href={`${page}${encodeURIComponent(subject.slice(at + 1))}`}>{subject}</Link> : <>{subject}</>;
}

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
  const columns: Column<AdminAuditEntry>[] = [
    { key: 'at', label: t('audit.at'), cell: (r) => when(r.at) },
    { key: 'actor', label: t('audit.actor'), cell: (r) => r.actorLabel },
    { key: 'action', label: t('audit.action'), cell: (r) => r.action },
    { key: 'subject', label: t('audit.subject'), cell: (r) => <Subject subject={r.subject} /> },
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
        rowKey={(r) => r._id}
        searchKey="subject"
        searchLabel={t('audit.subject_search')}
        filterControls={[{ key: 'action', label: t('audit.action'), options: AUDIT_ACTIONS.map((a) => ({ value: a, label: a })) }]}
        {...list}
      />
    </AdminPage>
  );
}
