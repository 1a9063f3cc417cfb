// One page of a subcategory's products, optionally filtered and narrowed to the parts that fit a car.
import { api, initialBody, unwrap, type SubcategoryListing } from '@marque/api-client';
import { useRequest } from '@marque/ui';
import { carParams, type CarFilter } from '../../../lib/garage/car-filter';
import { filterParams, listingQuery, type ListingFilters } from '../../../lib/listing/filters';

export async function getSubcategoryProducts(
  categorySlug: string,
  subcategorySlug: string,
  filters: ListingFilters,
  page: number,
  car: CarFilter | null = null,
  signal?: AbortSignal,
): Promise<SubcategoryListing> {
  return unwrap(await api.GET(PATH, { params: paramsOf(categorySlug, subcategorySlug, filters, page, car), signal }));
}

const PATH = '/api/get/product/{categoryName}/{subCategoryName}';
const paramsOf = (
  categorySlug: string,
  subcategorySlug: string,
  filters: ListingFilters,
  page: number,
  car: CarFilter | null,
) => ({
  path: { categoryName: categorySlug, subCategoryName: subcategorySlug },
  query: { page, ...filterParams(filters), ...carParams(car) },
});

export const useSubcategoryProducts = (
  categorySlug: string,
  subcategorySlug: string,
  filters: ListingFilters,
  page: number,
  car: CarFilter | null = null,
) =>
  useRequest(
    `subcategory-products:${categorySlug}/${subcategorySlug}?${listingQuery(filters, page, car)}`,
    (signal) => getSubcategoryProducts(categorySlug, subcategorySlug, filters, page, car, signal),
    () => initialBody(PATH, paramsOf(categorySlug, subcategorySlug, filters, page, car)),
  );
