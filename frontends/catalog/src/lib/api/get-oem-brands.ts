// The car brands (OEM) the OEM BRANDS filter offers.
import { api, initialBody, unwrap, type OemBrand } from '@marque/api-client';
import { useRequest } from '@marque/ui';

export async function getOemBrands(signal?: AbortSignal): Promise<OemBrand[]> {
  return unwrap(await api.GET('/api/get/brand/oem', { signal })).data;
}

export const useOemBrands = () =>
  useRequest('listing:oem-brands', (signal) => getOemBrands(signal), () => initialBody('/api/get/brand/oem')?.data);
