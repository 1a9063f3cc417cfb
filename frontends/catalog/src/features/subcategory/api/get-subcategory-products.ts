// One page of a subcategory's products, optionally filtered.
import { api, unwrap, type SubcategoryListing } from '@marque/api-client';
import { useRequest } from '@marque/ui';
import { filterParams, listingQuery, type ListingFilters } from '../../listing/filters';

export async function getSubcategoryProducts(
  categorySlug: string,
  subcategorySlug: string,
  filters: ListingFilters,
  page: number,
  signal?: AbortSignal,
): Promise<SubcategoryListing> {
  return unwrap(
    await api.GET('/api/get/product/{categoryName}/{subCategoryName}', {
      params: {
        path: { categoryName: categorySlug, subCategoryName: subcategorySlug },
        query: { page, ...filterParams(filters) },
      },
      signal,
    }),
  );
}

export const useSubcategoryProducts = (
  categorySlug: string,
  subcategorySlug: string,
  filters: ListingFilters,
  page: number,
) =>
  useRequest(`subcategory-products:${categorySlug}/${subcategorySlug}?${listingQuery(filters, page)}`, (signal) =>
    getSubcategoryProducts(categorySlug, subcategorySlug, filters, page, signal),
  );
