// The page and filters of a listing, read from the address every render, so a shared link or the
// browser's Back shows exactly the filters it carries. Changing a filter goes to page 1 of the new address.
import { pageFrom } from '@marque/ui';
import { useLocation, useSearch } from 'wouter';
import { filtersFrom, listingQuery, type ListingFilters } from '../filters';

export function useListingAddress() {
  const [path, navigate] = useLocation();
  const query = new URLSearchParams(useSearch());
  const filters = filtersFrom(query);
  const page = pageFrom(query.get('page'));
  return {
    filters,
    page,
    /** The address of page `n` with the current filters. */
    hrefFor: (n: number) => `${path}?${listingQuery(filters, n)}`,
    /** Shows the first page with `next` filters, as a new history entry. */
    setFilters: (next: ListingFilters) => navigate(`${path}?${listingQuery(next, 1)}`),
  };
}
