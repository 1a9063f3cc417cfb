// One page of the products of one car brand (OEM), newest first, maybe only those that fit a car; a brand without
// products is an empty page.
import { api, initialBody, unwrap, type SearchPage } from '@marque/api-client';
import { useRequest } from '@marque/ui';
import { carParams, withCar, type CarFilter } from '../../../lib/garage/car-filter';

const PATH = '/api/get/productByOem/{brandSlug}';
const paramsOf = (brandSlug: string, page: number, car: CarFilter | null) => ({
  path: { brandSlug },
  query: { page, ...carParams(car) },
});

export async function getBrandProducts(
  brandSlug: string,
  page: number,
  car: CarFilter | null = null,
  signal?: AbortSignal,
): Promise<SearchPage> {
  return unwrap(await api.GET(PATH, { params: paramsOf(brandSlug, page, car), signal }));
}

export const useBrandProducts = (brandSlug: string, page: number, car: CarFilter | null = null) =>
  useRequest(
    withCar(`brand-products:${page}:${brandSlug}?`, car),
    (signal) => getBrandProducts(brandSlug, page, car, signal),
    () => initialBody(PATH, paramsOf(brandSlug, page, car)),
  );
