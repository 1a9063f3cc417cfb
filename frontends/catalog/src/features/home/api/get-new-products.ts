// The most recently added products, for the home page.
import { api, initialBody, unwrap, type Product } from '@marque/api-client';
import { useRequest } from '@marque/ui';

export async function getNewProducts(signal?: AbortSignal): Promise<Product[]> {
  const body = unwrap(await api.GET('/api/get/new-products', { signal }));
  return body.data;
}

export const useNewProducts = () =>
  useRequest('new-products', getNewProducts, () => initialBody('/api/get/new-products')?.data);
