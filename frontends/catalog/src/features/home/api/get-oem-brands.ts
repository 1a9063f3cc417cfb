// The car brands (OEMs) with their logos, for the brand strip.
import { api, initialBody, unwrap, type OemBrand } from '@marque/api-client';
import { useRequest } from '@marque/ui';

export async function getOemBrands(signal?: AbortSignal): Promise<OemBrand[]> {
  const body = unwrap(await api.GET('/api/get/brand/oem', { signal }));
  return body.data;
}

export const useOemBrands = () => useRequest('oem-brands', getOemBrands, () => initialBody('/api/get/brand/oem')?.data);
