// A category's products: grouped by subcategory without a filter, one flat page with any filter.
import { api, initialBody, unwrap, type CategoryListing } from '@marque/api-client';
import { useRequest } from '@marque/ui';
import { filterParams, listingQuery, type ListingFilters } from '../../../lib/listing/filters';

export async function getCategoryProducts(
  categorySlug: string,
  filters: ListingFilters,
  page: number,
  signal?: AbortSignal,
): Promise<CategoryListing> {
  return unwrap(await api.GET(PATH, { params: paramsOf(categorySlug, filters, page), signal }));
}

const PATH = '/api/get/product/{categorySlug}';
const paramsOf = (categorySlug: string, filters: ListingFilters, page: number) => ({
  path: { categorySlug },
  query: { page, ...filterParams(filters) },
});

export const useCategoryProducts = (categorySlug: string, filters: ListingFilters, page: number) =>
  useRequest(
    `category-products:${categorySlug}?${listingQuery(filters, page)}`,
    (signal) => getCategoryProducts(categorySlug, filters, page, signal),
    () => initialBody(PATH, paramsOf(categorySlug, filters, page)),
  );
