// Every category with its subcategories: the home page's filter bar and the listing sidebar ask the same call.
import { api, initialBody, unwrap, type Category } from '@marque/api-client';
import { useRequest } from '@marque/ui';

export async function getCategories(signal?: AbortSignal): Promise<Category[]> {
  return unwrap(await api.GET('/api/get/category', { signal })).data;
}

export const useCategories = () => useRequest('categories', getCategories, () => initialBody('/api/get/category')?.data);
