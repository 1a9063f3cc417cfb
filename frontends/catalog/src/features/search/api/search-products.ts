// One page of products matching a part name or number, maybe only those that fit a car; an empty term lists every product.
import { api, initialBody, unwrap, type SearchPage } from '@marque/api-client';
import { useRequest } from '@marque/ui';
import { carParams, withCar, type CarFilter } from '../../../lib/garage/car-filter';

const paramsOf = (term: string, page: number, car: CarFilter | null) => ({
  query: { search: term, page, ...carParams(car) },
});

export async function searchProducts(
  term: string,
  page: number,
  car: CarFilter | null = null,
  signal?: AbortSignal,
): Promise<SearchPage> {
  return unwrap(await api.GET('/api/get/productBySearch', { params: paramsOf(term, page, car), signal }));
}

export const useSearchProducts = (term: string, page: number, car: CarFilter | null = null) =>
  useRequest(
    withCar(`search:${page}:${term}?`, car),
    (signal) => searchProducts(term, page, car, signal),
    () => initialBody('/api/get/productBySearch', paramsOf(term, page, car)),
  );
