// One product by its id, for the product detail page.
import { api, initialBody, unwrap, type Product } from '@marque/api-client';
import { useRequest } from '@marque/ui';

export async function getProduct(productId: string, signal?: AbortSignal): Promise<Product> {
  const body = unwrap(await api.GET('/api/get/productById/{id}', { params: { path: { id: productId } }, signal }));
  return body.data;
}

export const useProduct = (productId: string) =>
  useRequest(
    `product:${productId}`,
    (signal) => getProduct(productId, signal),
    () => initialBody('/api/get/productById/{id}', { path: { id: productId } })?.data,
  );
