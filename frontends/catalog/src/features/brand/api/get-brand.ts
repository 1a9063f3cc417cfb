// The car brand (OEM) with a slug, from the list of brands; undefined when the shop has no such brand.
import { api, unwrap, type OemBrand } from '@marque/api-client';
import { useRequest } from '@marque/ui';

export async function getBrand(brandSlug: string, signal?: AbortSignal): Promise<OemBrand | undefined> {
  const body = unwrap(await api.GET('/api/get/brand/oem', { signal }));
  return body.data.find((brand) => brand.slug === brandSlug);
}

export const useBrand = (brandSlug: string) =>
  useRequest(`brand:${brandSlug}`, (signal) => getBrand(brandSlug, signal));
