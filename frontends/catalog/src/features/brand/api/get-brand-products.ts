// One page of the products of one car brand (OEM), newest first; a brand without products is an empty page.
import { api, unwrap, type SearchPage } from '@marque/api-client';
import { useRequest } from '@marque/ui';

export async function getBrandProducts(brandSlug: string, page: number, signal?: AbortSignal): Promise<SearchPage> {
  return unwrap(
    await api.GET('/api/get/productByOem/{brandSlug}', { params: { path: { brandSlug }, query: { page } }, signal }),
  );
}

export const useBrandProducts = (brandSlug: string, page: number) =>
  useRequest(`brand-products:${page}:${brandSlug}`, (signal) => getBrandProducts(brandSlug, page, signal));
