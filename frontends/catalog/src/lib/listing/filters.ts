// The filters of a category or subcategory listing as they travel in the address: `oem=bmw--audi&fuel_type=diesel`.
// Parsing and printing of one filter's value are the shop's rules (@marque/rules); this file only gathers the three.
import { FILTER_SEPARATOR, filterValues, printFilter, type FilterKind } from '@marque/rules';
import { withCar, type CarFilter } from '../garage/car-filter';

/** The filter kinds in the order the address carries them. */
export const FILTER_KINDS = ['oem', 'product_type', 'fuel_type'] as const satisfies readonly FilterKind[];

/** The chosen values of every filter; an empty list is no filter. */
export type ListingFilters = Record<FilterKind, string[]>;

export const NO_FILTERS: ListingFilters = { oem: [], product_type: [], fuel_type: [] };

/**
 * The filters in a query string. A value the rules refuse is kept as typed, so the server answers
 * `filter.invalid` for it and the visitor can still remove it with its chip.
 */
export function filtersFrom(query: URLSearchParams): ListingFilters {
  const read = (kind: FilterKind): string[] => {
    const raw = query.get(kind) ?? '';
    const values = filterValues(kind, raw);
    if (values) return values;
    return [...new Set(raw.split(FILTER_SEPARATOR).filter((part) => part.trim() !== ''))];
  };
  return { oem: read('oem'), product_type: read('product_type'), fuel_type: read('fuel_type') };
}

export function hasFilters(filters: ListingFilters): boolean {
  return FILTER_KINDS.some((kind) => filters[kind].length > 0);
}

/** `page=1&oem=bmw--audi&…&fits=…&year=…`: the page first, then each filter that has values, then the car. */
export function listingQuery(filters: ListingFilters, page: number, car: CarFilter | null = null): string {
  const query = new URLSearchParams({ page: String(page) });
  for (const kind of FILTER_KINDS) {
    if (filters[kind].length > 0) query.set(kind, printFilter(filters[kind]));
  }
  // '-' needs no escaping, so `bmw--audi` stays readable in the address.
  return withCar(query.toString(), car);
}

/** The filters with `value` of `kind` added or taken away. */
export function toggled(filters: ListingFilters, kind: FilterKind, value: string, on: boolean): ListingFilters {
  const others = filters[kind].filter((v) => v !== value);
  return { ...filters, [kind]: on ? [...others, value] : others };
}

/** The query values the listing calls take: only the filters that have values. */
export function filterParams(filters: ListingFilters): Partial<Record<FilterKind, string>> {
  const params: Partial<Record<FilterKind, string>> = {};
  for (const kind of FILTER_KINDS) {
    if (filters[kind].length > 0) params[kind] = printFilter(filters[kind]);
  }
  return params;
}
