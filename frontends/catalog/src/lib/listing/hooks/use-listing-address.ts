// The page and filters of a listing, read from the address every render, so a shared link or the
// browser's Back shows exactly the filters (and car) it carries. Changing a filter goes to page 1 of the new address.
import { pageFrom } from '@marque/ui';
import { useLocation, useSearch } from 'wouter';
import { carFilterFrom } from '../../garage/car-filter';
import { filtersFrom, listingQuery, type ListingFilters } from '../filters';

export function useListingAddress() {
  const [path, navigate] = useLocation();
  const query = new URLSearchParams(useSearch());
  const filters = filtersFrom(query);
  const page = pageFrom(query.get('page'));
  const car = carFilterFrom(query);
  return {
    filters,
    page,
    car,
    /** The address of page `n` with the current filters and car. */
    hrefFor: (n: number) => `${path}?${listingQuery(filters, n, car)}`,
    /** Shows the first page with `next` filters (the car kept), as a new history entry. */
    setFilters: (next: ListingFilters) => navigate(`${path}?${listingQuery(next, 1, car)}`),
  };
}
