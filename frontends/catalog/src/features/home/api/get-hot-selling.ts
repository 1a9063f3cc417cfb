// The best sellers ("suggestions"), for the home page.
import { api, initialBody, unwrap, type HotSellingItem } from '@marque/api-client';
import { useRequest } from '@marque/ui';

export async function getHotSelling(signal?: AbortSignal): Promise<HotSellingItem[]> {
  const body = unwrap(await api.GET('/api/get/suggestion', { signal }));
  return body.result;
}

export const useHotSelling = () => useRequest('hot-selling', getHotSelling, () => initialBody('/api/get/suggestion')?.result);
