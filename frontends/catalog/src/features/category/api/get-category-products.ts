// A category's products: grouped by subcategory without a filter, one flat page with any filter.
import { api, unwrap, type CategoryListing } from '@marque/api-client';
import { useRequest } from '@marque/ui';
import { filterParams, listingQuery, type ListingFilters } from '../../listing/filters';

export async function getCategoryProducts(
  categorySlug: string,
  filters: ListingFilters,
  page: number,
  signal?: AbortSignal,
): Promise<CategoryListing> {
  return unwrap(
    await api.GET('/api/get/product/{categorySlug}', {
      params: { path: { categorySlug }, query: { page, ...filterParams(filters) } },
      signal,
    }),
  );
}

export const useCategoryProducts = (categorySlug: string, filters: ListingFilters, page: number) =>
  useRequest(`category-products:${categorySlug}?${listingQuery(filters, page)}`, (signal) =>
    getCategoryProducts(categorySlug, filters, page, signal),
  );
