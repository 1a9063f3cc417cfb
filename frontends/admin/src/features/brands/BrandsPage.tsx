// Brands (the OEMs the shop sells parts for) with their logos: add one, change its name or logo.
import { useT } from '@marque/i18n';
import { useState } from 'react';
import { adminCall } from '../../lib/api/calls';
import type { AdminBrand } from '../../lib/api/types';
import { TextField } from '../../lib/form/Field';
import { AdminForm } from '../../lib/form/AdminForm';
import { NameSlugFields } from '../../lib/form/NameSlugFields';
import { useForm } from '../../lib/form/use-form';
import { AdminPage } from '../../lib/layout/Page';
import { DataTable, type Column } from '../../lib/table/DataTable';
import { useList } from '../../lib/table/use-list';

const BRAND_CODES = { 'catalog.slug_taken': 'slug', 'catalog.slug_invalid': 'slug', 'catalog.name_invalid': 'name', 'brand.logo_invalid': 'logo' } as const;

function BrandForm({ brand, onSaved }: { brand?: AdminBrand; onSaved: () => void }) {
  const t = useT('admin');
  const form = useForm({ name: brand?.name ?? '', slug: brand?.slug ?? '', logo: brand?.logo ?? '' }, BRAND_CODES);
  const { values, set, errors } = form;
  const prefix = brand ? `brand-${brand._id}` : 'brand';
  return (
    <AdminForm
      form={form}
      className="admin-form admin-form--inline"
      onSubmit={() =>
        form.submit(
          (v) =>
            brand
              ? adminCall('PATCH /api/admin/brands/{id}', { path: { id: brand._id }, body: { name: v.name.trim(), slug: v.slug.trim(), logo: v.logo.trim() } })
              : adminCall('POST /api/admin/brands', { body: { name: v.name.trim(), slug: v.slug.trim(), logo: v.logo.trim() } }),
          () => {
            if (!brand) form.setValues({ name: '', slug: '', logo: '' });
            onSaved();
          },
        )
      }
    >
      <NameSlugFields idPrefix={prefix} values={values} errors={errors} set={set} proposeSlug={!brand} />
      <TextField id={`${prefix}-logo`} label={t('brand.logo')} hint={t('brand.logo_hint')} value={values.logo} onChange={(v) => set('logo', v)} error={errors.logo} />
      <button type="submit" className="button" disabled={form.busy || !values.name.trim() || !values.slug.trim()}>
        {brand ? t('save') : t('brand.create')}
      </button>
    </AdminForm>
  );
}

export function BrandsPage() {
  const t = useT('admin');
  const list = useList('GET /api/admin/brands');
  const [editing, setEditing] = useState<string | null>(null);
  const columns: Column<AdminBrand>[] = [
    { key: 'logo', label: t('brand.logo'), cell: (b) => (b.logo ? <img src={b.logo} alt="" width={48} height={48} loading="lazy" /> : null) },
    { key: 'name', label: t('field.name'), cell: (b) => b.name },
    { key: 'slug', label: t('field.slug'), cell: (b) => b.slug },
    {
      key: 'edit',
      label: t('edit'),
      cell: (b) =>
        editing === b._id ? (
          <BrandForm
            brand={b}
            onSaved={() => {
              setEditing(null);
              list.reload();
            }}
          />
        ) : (
          <button type="button" className="admin-link-button" onClick={() => setEditing(b._id)}>
            {t('edit')}
          </button>
        ),
    },
  ];
  return (
    <AdminPage title={t('nav.brands')}>
      <h2>{t('brand.new')}</h2>
      <BrandForm onSaved={list.reload} />
      <DataTable label={t('nav.brands')} columns={columns} rowKey={(b) => b._id} {...list} />
    </AdminPage>
  );
}
