// The car brand (OEM) with a slug, from the list of brands (the one brands call, see lib/api); undefined when
// the shop has no such brand.
import type { OemBrand } from '@marque/api-client';
import type { RequestState } from '@marque/ui';
import { useOemBrands } from '../../../lib/api/get-oem-brands';

export function useBrand(brandSlug: string): RequestState<OemBrand | undefined> {
  const brands = useOemBrands();
  return brands.status === 'success' ? { status: 'success', data: brands.data.find((b) => b.slug === brandSlug) } : brands;
}
