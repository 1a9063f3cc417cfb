// PRODUCT TYPE, Fuel TYPE and OEM BRANDS: a checkbox per value; several values of one filter combine.
import type { OemBrand } from '@marque/api-client';
import { useT, type Key } from '@marque/i18n';
import { FILTER_VALUES, type FilterKind } from '@marque/rules';
import type { ReactNode } from 'react';
import { toggled, type ListingFilters } from '../filters';
import { VALUE_LABELS } from './filter-labels';

type Props = {
  filters: ListingFilters;
  brands: readonly OemBrand[];
  onChange: (next: ListingFilters) => void;
};

export function FilterGroups({ filters, brands, onChange }: Props) {
  const t = useT('listing');
  const box = (kind: FilterKind, value: string, label: string) => (
    <li key={value}>
      <label className="filter-option">
        <input
          type="checkbox"
          checked={filters[kind].includes(value)}
          onChange={(event) => onChange(toggled(filters, kind, value, event.target.checked))}
        />
        {label}
      </label>
    </li>
  );
  const fixed = (kind: keyof typeof VALUE_LABELS) =>
    FILTER_VALUES[kind].map((value) => box(kind, value, t((VALUE_LABELS[kind] as Record<string, Key<'listing'>>)[value]!)));

  return (
    <>
      <FilterGroup legend={t('product_type')}>{fixed('product_type')}</FilterGroup>
      <FilterGroup legend={t('fuel_type')}>{fixed('fuel_type')}</FilterGroup>
      {brands.length > 0 ? (
        <FilterGroup legend={t('oem_brands')}>{brands.map((brand) => box('oem', brand.slug, brand.name))}</FilterGroup>
      ) : null}
    </>
  );
}

function FilterGroup({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="filter-group">
      <legend className="filter-group__legend">{legend}</legend>
      <ul>{children}</ul>
    </fieldset>
  );
}
