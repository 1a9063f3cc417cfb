// Categories and their subcategories: add a category, rename one, add a subcategory under it (slugs unique).
import { useT } from '@marque/i18n';
import { useState } from 'react';
import { adminCall } from '../../lib/api/calls';
import type { AdminCategory } from '../../lib/api/types';
import { AdminForm } from '../../lib/form/AdminForm';
import { NameSlugFields } from '../../lib/form/NameSlugFields';
import { useForm } from '../../lib/form/use-form';
import { AdminPage } from '../../lib/layout/Page';
import { DataTable, type Column } from '../../lib/table/DataTable';
import { useList } from '../../lib/table/use-list';

const SLUG_CODES = { 'catalog.slug_taken': 'slug', 'catalog.slug_invalid': 'slug', 'catalog.name_invalid': 'name' } as const;

function NameSlugForm({ idPrefix, submitLabel, onSave }: { idPrefix: string; submitLabel: string; onSave: (v: { name: string; slug: string }) => ReturnType<typeof adminCall<'POST /api/admin/categories'>> }) {
  const form = useForm({ name: '', slug: '' }, SLUG_CODES);
  const { values, set, errors } = form;
  return (
    <AdminForm
      form={form}
      className="admin-form admin-form--inline"
      onSubmit={() =>
        form.submit(
          (v) => onSave({ name: v.name.trim(), slug: v.slug.trim() }),
          () => form.setValues({ name: '', slug: '' }),
        )
      }
    >
      <NameSlugFields idPrefix={idPrefix} values={values} errors={errors} set={set} proposeSlug />
      <button type="submit" className="button" disabled={form.busy || !values.name.trim() || !values.slug.trim()}>
        {submitLabel}
      </button>
    </AdminForm>
  );
}

export function CategoriesPage() {
  const t = useT('admin');
  const list = useList('GET /api/admin/categories');
  const [open, setOpen] = useState<string | null>(null);
  const columns: Column<AdminCategory>[] = [
    { key: 'name', label: t('field.name'), cell: (c) => c.name },
    { key: 'slug', label: t('field.slug'), cell: (c) => c.slug },
    {
      key: 'subcategories',
      label: t('category.subcategories'),
      cell: (c) => (
        <>
          <ul className="admin-inline-list">
            {c.subcategories.map((s) => (
              <li key={s._id}>{s.name}</li>
            ))}
          </ul>
          {open === c._id ? (
            <NameSlugForm
              idPrefix={`sub-${c._id}`}
              submitLabel={t('category.add_sub')}
              onSave={async (body) => {
                const answer = await adminCall('POST /api/admin/categories/{id}/subcategories', { path: { id: c._id }, body });
                if (answer.ok) list.reload();
                return answer;
              }}
            />
          ) : (
            <button type="button" className="admin-link-button" onClick={() => setOpen(c._id)}>
              {t('category.add_sub')}
            </button>
          )}
        </>
      ),
    },
  ];
  return (
    <AdminPage title={t('nav.categories')}>
      <h2>{t('category.new')}</h2>
      <NameSlugForm
        idPrefix="category"
        submitLabel={t('category.create')}
        onSave={async (body) => {
          const answer = await adminCall('POST /api/admin/categories', { body });
          if (answer.ok) list.reload();
          return answer;
        }}
      />
      <DataTable label={t('nav.categories')} columns={columns} rowKey={(c) => c._id} {...list} />
    </AdminPage>
  );
}
