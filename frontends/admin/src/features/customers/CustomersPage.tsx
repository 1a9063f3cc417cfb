// Find a customer by name, email or mobile number; each row shows their running offer and opens their page.
import { useT } from '@marque/i18n';
import { Link } from 'wouter';
import type { AdminCustomer } from '../../lib/api/types';
import { AdminPage } from '../../lib/layout/Page';
import { DataTable, type Column } from '../../lib/table/DataTable';
import { useList } from '../../lib/table/use-list';
import { offerText } from './offer';

export function CustomersPage() {
  const t = useT('admin');
  const list = useList('GET /api/admin/customers');
  const columns: Column<AdminCustomer>[] = [
    { key: 'name', label: t('field.name'), cell: (c) => <Link href={`/admin/customers/${encodeURIComponent(c._id)}`}>{c.name || c.email}</Link> },
    { key: 'email', label: t('field.email'), cell: (c) => c.email },
    { key: 'mobile', label: t('field.mobile'), cell: (c) => c.mobile },
    { key: 'offer', label: t('offer.title'), cell: (c) => offerText(t, c) },
  ];
  return (
    <AdminPage title={t('nav.customers')}>
      <p>{t('customers.text')}</p>
      <DataTable label={t('nav.customers')} columns={columns} rowKey={(c) => c._id} {...list} />
    </AdminPage>
  );
}
