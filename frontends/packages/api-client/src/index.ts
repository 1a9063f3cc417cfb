// The typed HTTP client of the Marque API: types come from the generated schema, calls from openapi-fetch.
import createClient from 'openapi-fetch';
import type { paths } from './schema';

export type { paths } from './schema';

/** The JSON body a GET operation answers with on 200, e.g. `OkBody<'/api/get/new-products'>`. */
export type OkBody<P extends GetPath> = JsonContent<GetOperation<P>['responses'][200]>;

export type GetPath = {
  [P in keyof paths]: paths[P] extends { get: { responses: { 200: unknown } } } ? P : never;
}[keyof paths];

type GetOperation<P extends GetPath> = paths[P] extends { get: infer Op extends { responses: { 200: unknown } } }
  ? Op
  : never;

type JsonContent<R> = R extends { content: { 'application/json': infer Body } } ? Body : never;

export type Product = OkBody<'/api/get/productById/{id}'>['data'];
export type HotSellingItem = OkBody<'/api/get/suggestion'>['result'][number];
export type OemBrand = OkBody<'/api/get/brand/oem'>['data'][number];
export type SearchPage = OkBody<'/api/get/productBySearch'>;
export type Category = OkBody<'/api/get/category'>['data'][number];
/** A category's products: grouped by subcategory without a filter, one flat page with any filter. */
export type CategoryListing = OkBody<'/api/get/product/{categorySlug}'>;
/** One subcategory's group on an unfiltered category page: its count and a few products. */
export type SubcategoryGroup = CategoryListing['subcategory'][number];
/** One page of a subcategory's products. */
export type SubcategoryListing = OkBody<'/api/get/product/{categoryName}/{subCategoryName}'>;

/** Thrown when the server answers with a non-2xx status; `message` is the server's own text when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The server's stable error code (e.g. `filter.invalid`), when it sent one. */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

// Relative paths need a base outside a browser page (tests run in Node); in the page it is the shop's own origin.
const baseUrl = typeof location === 'undefined' ? '' : location.origin;

export const api = createClient<paths>({
  baseUrl,
  // Read `fetch` at call time, not at creation, so a test can fake the network after this module loaded.
  fetch: (request: Request) => globalThis.fetch(request),
});

/** Unwraps an openapi-fetch result: the body on success, an ApiError otherwise. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data !== undefined) return result.data;
  const error = result.error as { message?: unknown; code?: unknown } | undefined;
  const message = typeof error?.message === 'string' ? error.message : `HTTP ${result.response.status}`;
  throw new ApiError(result.response.status, message, typeof error?.code === 'string' ? error.code : undefined);
}
