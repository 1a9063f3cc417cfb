// A category's products: grouped by subcategory without a filter, one flat page with any filter (a car included).
import { api, initialBody, unwrap, type CategoryListing } from '@marque/api-client';
import { useRequest } from '@marque/ui';
import { carParams, type CarFilter } from '../../../lib/garage/car-filter';
import { filterParams, listingQuery, type ListingFilters } from '../../../lib/listing/filters';

export async function getCategoryProducts(
  categorySlug: string,
  filters: ListingFilters,
  page: number,
  car: CarFilter | null = null,
  signal?: AbortSignal,
): Promise<CategoryListing> {
  return unwrap(await api.GET(PATH, { params: paramsOf(categorySlug, filters, page, car), signal }));
}

const PATH = '/api/get/product/{categorySlug}';
const paramsOf = (categorySlug: string, filters: ListingFilters, page: number, car: CarFilter | null) => ({
  path: { categorySlug },
  query: { page, ...filterParams(filters), ...carParams(car) },
});

export const useCategoryProducts = (
  categorySlug: string,
  filters: ListingFilters,
  page: number,
  car: CarFilter | null = null,
) =>
  useRequest(
    `category-products:${categorySlug}?${listingQuery(filters, page, car)}`,
    (signal) => getCategoryProducts(categorySlug, filters, page, car, signal),
    () => initialBody(PATH, paramsOf(categorySlug, filters, page, car)),
  );
