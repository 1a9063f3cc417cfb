// One page of products matching a part name or number; an empty term lists every product.
import { api, initialBody, unwrap, type SearchPage } from '@marque/api-client';
import { useRequest } from '@marque/ui';

export async function searchProducts(term: string, page: number, signal?: AbortSignal): Promise<SearchPage> {
  return unwrap(await api.GET('/api/get/productBySearch', { params: { query: { search: term, page } }, signal }));
}

export const useSearchProducts = (term: string, page: number) =>
  useRequest(
    `search:${page}:${term}`,
    (signal) => searchProducts(term, page, signal),
    () => initialBody('/api/get/productBySearch', { query: { search: term, page } }),
  );
