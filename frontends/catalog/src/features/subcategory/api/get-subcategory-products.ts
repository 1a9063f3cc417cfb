// One page of a subcategory's products, optionally filtered.
import { api, initialBody, unwrap, type SubcategoryListing } from '@marque/api-client';
import { useRequest } from '@marque/ui';
import { filterParams, listingQuery, type ListingFilters } from '../../../lib/listing/filters';

export async function getSubcategoryProducts(
  categorySlug: string,
  subcategorySlug: string,
  filters: ListingFilters,
  page: number,
  signal?: AbortSignal,
): Promise<SubcategoryListing> {
  return unwrap(await api.GET(PATH, { params: paramsOf(categorySlug, subcategorySlug, filters, page), signal }));
}

const PATH = '/api/get/product/{categoryName}/{subCategoryName}';
const paramsOf = (categorySlug: string, subcategorySlug: string, filters: ListingFilters, page: number) => ({
  path: { categoryName: categorySlug, subCategoryName: subcategorySlug },
  query: { page, ...filterParams(filters) },
});

export const useSubcategoryProducts = (
  categorySlug: string,
  subcategorySlug: string,
  filters: ListingFilters,
  page: number,
) =>
  useRequest(
    `subcategory-products:${categorySlug}/${subcategorySlug}?${listingQuery(filters, page)}`,
    (signal) => getSubcategoryProducts(categorySlug, subcategorySlug, filters, page, signal),
    () => initialBody(PATH, paramsOf(categorySlug, subcategorySlug, filters, page)),
  );
