// Every category with its subcategories, for the listing sidebar.
import { api, initialBody, unwrap, type Category } from '@marque/api-client';
import { useRequest } from '@marque/ui';

export async function getCategories(signal?: AbortSignal): Promise<Category[]> {
  return unwrap(await api.GET('/api/get/category', { signal })).data;
}

export const useCategories = () =>
  useRequest('listing:categories', (signal) => getCategories(signal), () => initialBody('/api/get/category')?.data);
