// The car brand (OEM) with a slug, from the list of brands; undefined when the shop has no such brand.
import { api, initialBody, unwrap, type OemBrand } from '@marque/api-client';
import { useRequest } from '@marque/ui';

export async function getBrand(brandSlug: string, signal?: AbortSignal): Promise<OemBrand | undefined> {
  const body = unwrap(await api.GET('/api/get/brand/oem', { signal }));
  return body.data.find((brand) => brand.slug === brandSlug);
}

export const useBrand = (brandSlug: string) =>
  useRequest(
    `brand:${brandSlug}`,
    (signal) => getBrand(brandSlug, signal),
    // The brand from the page's embedded list; one it does not name is loaded (and drawn as not found) as before.
    () => initialBody('/api/get/brand/oem')?.data.find((brand) => brand.slug === brandSlug),
  );
