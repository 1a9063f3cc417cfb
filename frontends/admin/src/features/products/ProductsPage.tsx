// Every product, published or not: search by name or any part number, filter by published, page by page.
import { useT } from '@marque/i18n';
import { formatRupees } from '@marque/ui';
import { Link } from 'wouter';
import type { AdminProduct } from '../../lib/api/types';
import { AdminPage } from '../../lib/layout/Page';
import { DataTable, type Column } from '../../lib/table/DataTable';
import { useList } from '../../lib/table/use-list';

export function ProductsPage() {
  const t = useT('admin');
  const list = useList('GET /api/admin/products', { filters: ['published'] });
  const columns: Column<AdminProduct>[] = [
    {
      key: 'name',
      label: t('product.name'),
      cell: (p) => <Link href={`/admin/products/${encodeURIComponent(p._id)}`}>{p.name}</Link>,
    },
    { key: 'partNo', label: t('product.partNo'), cell: (p) => p.partNo },
    { key: 'sku', label: t('product.sku'), cell: (p) => p.sku },
    { key: 'price', label: t('product.price'), cell: (p) => formatRupees(p.price) },
    { key: 'quantity', label: t('product.quantity'), cell: (p) => p.quantity },
    { key: 'published', label: t('product.published'), cell: (p) => (p.published ? t('yes') : t('no')) },
  ];
  return (
    <AdminPage
      title={t('nav.products')}
      actions={
        <Link href="/admin/products/new" className="button">
          {t('product.new_title')}
        </Link>
      }
    >
      <DataTable
        label={t('nav.products')}
        columns={columns}
        rowKey={(p) => p._id}
        filterControls={[
          {
            key: 'published',
            label: t('product.published'),
            options: [
              { value: 'true', label: t('yes') },
              { value: 'false', label: t('no') },
            ],
          },
        ]}
        {...list}
      />
    </AdminPage>
  );
}
