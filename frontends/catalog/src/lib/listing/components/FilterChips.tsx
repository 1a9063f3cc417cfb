// One removable chip per active filter value, e.g. 'Diesel ×' named "Remove Diesel".
import type { OemBrand } from '@marque/api-client';
import { useT } from '@marque/i18n';
import { FILTER_KINDS, toggled, type ListingFilters } from '../filters';
import { valueLabelKey } from './filter-labels';

export function FilterChips({
  filters,
  brands,
  onChange,
}: {
  filters: ListingFilters;
  brands: readonly OemBrand[];
  onChange: (next: ListingFilters) => void;
}) {
  const t = useT('listing');
  const label = (kind: (typeof FILTER_KINDS)[number], value: string): string => {
    if (kind === 'oem') return brands.find((brand) => brand.slug === value)?.name ?? value;
    const key = valueLabelKey(kind, value);
    return key ? t(key) : value;
  };
  const chips = FILTER_KINDS.flatMap((kind) => filters[kind].map((value) => ({ kind, value, text: label(kind, value) })));
  if (chips.length === 0) return null;
  return (
    <ul className="filter-chips" aria-label={t('active_filters')}>
      {chips.map(({ kind, value, text }) => (
        <li key={`${kind}:${value}`}>
          <button
            type="button"
            className="filter-chip"
            aria-label={t('remove_value', { value: text })}
            onClick={() => onChange(toggled(filters, kind, value, false))}
          >
            {text}
            <span aria-hidden="true" className="filter-chip__x">
              ×
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
