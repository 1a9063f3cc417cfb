// The car brands (OEMs) with their logos: the home page's brand strip, the listing's OEM BRANDS filter and the
// brand page (its name) ask the same call.
import { api, initialBody, unwrap, type OemBrand } from '@marque/api-client';
import { useRequest } from '@marque/ui';

export async function getOemBrands(signal?: AbortSignal): Promise<OemBrand[]> {
  return unwrap(await api.GET('/api/get/brand/oem', { signal })).data;
}

export const useOemBrands = () => useRequest('oem-brands', getOemBrands, () => initialBody('/api/get/brand/oem')?.data);
