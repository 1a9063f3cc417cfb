// Every field of a product: the specification's Product and a parts shop's own (SKU, alternate and superseded
// numbers, cross-references, HSN, warranty, weight and dimensions, published); a used unit's grade, donor car and
// margin scheme while its condition is a used one (or they hold something); the opening stock only when creating.
import { useT } from '@marque/i18n';
import { CONDITION_LABELS, FUEL_LABELS } from '@marque/rules';
import { conditionText, fuelText } from '@marque/ui';
import type { AdminBrand, AdminCategory } from '../../lib/api/types';
import { AdminForm } from '../../lib/form/AdminForm';
import { Field, FormAlert, TextField } from '../../lib/form/Field';
import type { useForm } from '../../lib/form/use-form';
import { isUsed, type ProductValues } from './product-form';

type Form = ReturnType<typeof useForm<ProductValues>>;

type Props = {
  form: Form;
  creating: boolean;
  categories: AdminCategory[];
  brands: AdminBrand[];
  saved: string | null;
  onSubmit: () => void;
};

export function ProductForm({ form, creating, categories, brands, saved, onSubmit }: Props) {
  const t = useT('admin');
  const common = useT('common');
  const { values: v, set, errors } = form;
  const category = categories.find((c) => c.slug === v.category_slug);
  const text = (field: keyof ProductValues & string, extra: Partial<Parameters<typeof TextField>[0]> = {}) => (
    <TextField
      id={`product-${field}`}
      label={t(`product.${field}` as 'product.name')}
      value={String(v[field])}
      onChange={(value) => set(field, value as never)}
      error={errors[field]}
      {...extra}
    />
  );
  const select = (field: 'producttype' | 'fuelType' | 'category_slug' | 'subcategory_slug' | 'oem_slug', options: { value: string; label: string }[]) => (
    <Field id={`product-${field}`} label={t(`product.${field}`)} error={errors[field]}>
      <select
        id={`product-${field}`}
        value={v[field]}
        aria-invalid={errors[field] ? true : undefined}
        aria-describedby={errors[field] ? `product-${field}-error` : undefined}
        onChange={(event) => {
          set(field, event.target.value);
          if (field === 'category_slug') set('subcategory_slug', '');
        }}
      >
        <option value="">{t('product.choose')}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  );
  const decimal = { inputMode: 'decimal' as const };
  const numeric = { inputMode: 'numeric' as const };
  const usedFields = [v.grade, v.donorMake, v.donorModel, v.donorGeneration, v.donorYear, v.donorOdometerKm, v.purchasePrice];
  const showUsed = isUsed(v.producttype) || usedFields.some((s) => s.trim() !== '');
  return (
    <AdminForm form={form} onSubmit={onSubmit}>
      <FormAlert message={saved} tone="done" />
      <fieldset>
        <legend>{t('product.section.main')}</legend>
        {text('name')}
        {text('price', { ...decimal, hint: t('product.price_hint') })}
        {select(
          'producttype',
          Object.keys(CONDITION_LABELS).map((value) => ({ value, label: conditionText(common, value) })),
        )}
        {select(
          'fuelType',
          Object.keys(FUEL_LABELS).map((value) => ({ value, label: fuelText(common, value) })),
        )}
        <Field id="product-description" label={t('product.description')} error={errors.description}>
          <textarea id="product-description" rows={5} value={v.description} onChange={(e) => set('description', e.target.value)} />
        </Field>
      </fieldset>
      <fieldset>
        <legend>{t('product.section.place')}</legend>
        {select('category_slug', categories.map((c) => ({ value: c.slug, label: c.name })))}
        {select('subcategory_slug', (category?.subcategories ?? []).map((s) => ({ value: s.slug, label: s.name })))}
        {select('oem_slug', brands.map((b) => ({ value: b.slug, label: b.name })))}
        {text('variant')}
      </fieldset>
      <fieldset>
        <legend>{t('product.section.numbers')}</legend>
        {text('partNo')}
        {text('sku')}
        <Field id="product-alternateNumbers" label={t('product.alternateNumbers')} hint={t('product.list_hint')} error={errors.alternateNumbers}>
          <textarea id="product-alternateNumbers" rows={3} value={v.alternateNumbers} onChange={(e) => set('alternateNumbers', e.target.value)} />
        </Field>
        <Field id="product-supersededNumbers" label={t('product.supersededNumbers')} hint={t('product.list_hint')} error={errors.supersededNumbers}>
          <textarea id="product-supersededNumbers" rows={3} value={v.supersededNumbers} onChange={(e) => set('supersededNumbers', e.target.value)} />
        </Field>
        <Field
          id="product-crossReferences"
          label={t('product.crossReferences')}
          hint={t('product.crossReferences_hint')}
          error={errors.crossReferences}
        >
          <textarea
            id="product-crossReferences"
            rows={3}
            value={v.crossReferences}
            aria-invalid={errors.crossReferences ? true : undefined}
            aria-describedby={errors.crossReferences ? 'product-crossReferences-error' : undefined}
            onChange={(e) => set('crossReferences', e.target.value)}
          />
        </Field>
        {text('hsn')}
      </fieldset>
      {showUsed ? (
        <fieldset>
          <legend>{t('product.section.used')}</legend>
          <p className="admin-hint">{t('product.used_hint')}</p>
          <Field id="product-grade" label={t('product.grade')} error={errors.grade}>
            <select
              id="product-grade"
              value={v.grade}
              aria-invalid={errors.grade ? true : undefined}
              aria-describedby={errors.grade ? 'product-grade-error' : undefined}
              onChange={(event) => set('grade', event.target.value)}
            >
              <option value="">{t('product.grade_none')}</option>
              <option value="A">{t('product.grade_a')}</option>
              <option value="B">{t('product.grade_b')}</option>
              <option value="C">{t('product.grade_c')}</option>
            </select>
          </Field>
          <div className="admin-form__row">
            {text('donorMake')}
            {text('donorModel')}
            {text('donorGeneration')}
          </div>
          <div className="admin-form__row">
            {text('donorYear', numeric)}
            {text('donorOdometerKm', numeric)}
          </div>
          {text('purchasePrice', { ...decimal, hint: t('product.purchasePrice_hint') })}
        </fieldset>
      ) : null}
      <fieldset>
        <legend>{t('product.section.money')}</legend>
        {text('gst', decimal)}
        {text('inside_ncr', decimal)}
        {text('outside_ncr', decimal)}
        {text('warrantyDays', { ...numeric, hint: t('product.warranty_hint') })}
      </fieldset>
      <fieldset>
        <legend>{t('product.section.shipping')}</legend>
        {text('weightGrams', numeric)}
        <div className="admin-form__row">
          {text('length', numeric)}
          {text('width', numeric)}
          {text('height', numeric)}
        </div>
      </fieldset>
      {creating ? text('quantity', { ...numeric, hint: t('product.quantity_hint') }) : null}
      <div className="admin-field admin-field--check">
        <input id="product-published" type="checkbox" checked={v.published} onChange={(e) => set('published', e.target.checked)} />
        <label htmlFor="product-published">{t('product.published')}</label>
      </div>
      <button type="submit" className="button" disabled={form.busy}>
        {creating ? t('product.create') : t('product.save')}
      </button>
    </AdminForm>
  );
}
