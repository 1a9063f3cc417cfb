// The categories (with their subcategories), for the home page's filter bar.
import { api, initialBody, unwrap, type OkBody } from '@marque/api-client';
import { useRequest } from '@marque/ui';

export type Category = OkBody<'/api/get/category'>['data'][number];

export async function getCategories(signal?: AbortSignal): Promise<Category[]> {
  const body = unwrap(await api.GET('/api/get/category', { signal }));
  return body.data;
}

export const useCategories = () => useRequest('categories', getCategories, () => initialBody('/api/get/category')?.data);
