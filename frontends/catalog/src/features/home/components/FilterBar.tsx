// The home page's filter bar: pick a category (required), and optionally a car brand, a condition
// and a fuel; Search opens that category's listing with only the chosen filters.
import type { OemBrand } from '@marque/api-client';
import { useT } from '@marque/i18n';
import { FILTER_VALUES } from '@marque/rules';
import { useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import type { Category } from '@marque/api-client';

export type FilterChoice = { category: string; oem: string; productType: string; fuelType: string };

/** `/category/{slug}?page=1` plus each filter that was chosen, in the specification's order. */
export function categoryListingHref({ category, oem, productType, fuelType }: FilterChoice): string {
  const query = new URLSearchParams({ page: '1' });
  if (oem) query.set('oem', oem);
  if (productType) query.set('product_type', productType);
  if (fuelType) query.set('fuel_type', fuelType);
  return `/category/${encodeURIComponent(category)}?${query.toString()}`;
}

const HINT_ID = 'filter-bar-hint';
const NOTHING_CHOSEN: FilterChoice = { category: '', oem: '', productType: '', fuelType: '' };

export function FilterBar({ categories, brands }: { categories: Category[]; brands: OemBrand[] }) {
  const t = useT('home');
  const [, navigate] = useLocation();
  const [choice, setChoice] = useState<FilterChoice>(NOTHING_CHOSEN);
  const locked = choice.category === '';
  const hint = locked ? HINT_ID : undefined;

  const choose = (field: keyof FilterChoice) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    // Without a category the other filters are off, so nothing stale is kept behind them.
    setChoice((before) => (field === 'category' && value === '' ? NOTHING_CHOSEN : { ...before, [field]: value }));
  };

  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!locked) navigate(categoryListingHref(choice));
  };

  return (
    <form className="filter-bar" aria-label={t('filter.label')} onSubmit={search}>
      <label className="filter-bar__field">
        <span>{t('filter.category')}</span>
        <select value={choice.category} onChange={choose('category')}>
          <option value="">{t('filter.category.choose')}</option>
          {categories.map((category) => (
            <option key={category.slug} value={category.slug}>
              {category.name}
            </option>
          ))}
        </select>
      </label>
      <label className="filter-bar__field">
        <span>{t('filter.brand')}</span>
        <select value={choice.oem} onChange={choose('oem')} disabled={locked} aria-describedby={hint}>
          <option value="">{t('filter.brand.any')}</option>
          {brands.map((brand) => (
            <option key={brand.slug} value={brand.slug}>
              {brand.name}
            </option>
          ))}
        </select>
      </label>
      <label className="filter-bar__field">
        <span>{t('filter.condition')}</span>
        <select value={choice.productType} onChange={choose('productType')} disabled={locked} aria-describedby={hint}>
          <option value="">{t('filter.condition.any')}</option>
          {FILTER_VALUES.product_type.map((value) => (
            <option key={value} value={value}>
              {t(`filter.condition.${value}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="filter-bar__field">
        <span>{t('filter.fuel')}</span>
        <select value={choice.fuelType} onChange={choose('fuelType')} disabled={locked} aria-describedby={hint}>
          <option value="">{t('filter.fuel.any')}</option>
          {FILTER_VALUES.fuel_type.map((value) => (
            <option key={value} value={value}>
              {t(`filter.fuel.${value}`)}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="button filter-bar__search" disabled={locked} aria-describedby={hint}>
        {t('filter.search')}
      </button>
      {locked ? (
        <p id={HINT_ID} className="filter-bar__hint">
          {t('filter.hint')}
        </p>
      ) : null}
    </form>
  );
}
