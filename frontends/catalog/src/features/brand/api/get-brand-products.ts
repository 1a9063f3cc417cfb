// One page of the products of one car brand (OEM), newest first; a brand without products is an empty page.
import { api, initialBody, unwrap, type SearchPage } from '@marque/api-client';
import { useRequest } from '@marque/ui';

const PATH = '/api/get/productByOem/{brandSlug}';
const paramsOf = (brandSlug: string, page: number) => ({ path: { brandSlug }, query: { page } });

export async function getBrandProducts(brandSlug: string, page: number, signal?: AbortSignal): Promise<SearchPage> {
  return unwrap(await api.GET(PATH, { params: paramsOf(brandSlug, page), signal }));
}

export const useBrandProducts = (brandSlug: string, page: number) =>
  useRequest(
    `brand-products:${page}:${brandSlug}`,
    (signal) => getBrandProducts(brandSlug, page, signal),
    () => initialBody(PATH, paramsOf(brandSlug, page)),
  );
