// The typed HTTP client of the Marque API: types come from the generated schema and openapi-fetch's `Client`
// type; the calls are made here. The storefront only reads (GET), and openapi-fetch's run-time code (3 KB gzip in
// every remote) was more than a page's JavaScript budget could spare, so `api.GET` is a small function with the
// same signature and answers (`{ data }` on 2xx, `{ error }` with the parsed body otherwise, and `response`).
import type { Client } from 'openapi-fetch';
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

type GetInit = {
  params?: { path?: Record<string, string | number>; query?: Record<string, string | number | boolean | null | undefined> };
  signal?: AbortSignal;
};

/** `/api/get/productById/{id}` with its path parameters filled and its query (form style, empty values kept). */
function urlOf(path: string, init: GetInit): string {
  const filled = path.replace(/\{([^{}]+)\}/g, (_, name: string) => encodeURIComponent(String(init.params?.path?.[name] ?? '')));
  const query = Object.entries(init.params?.query ?? {})
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([key, value]) => `${key}=${encodeURIComponent(String(value))}`)
    .join('&');
  return `${baseUrl}${filled}${query ? `?${query}` : ''}`;
}

async function get(path: string, init: GetInit = {}) {
  const request = new Request(urlOf(path, init), { method: 'GET', signal: init.signal });
  // Read `fetch` at call time, not at creation, so a test can fake the network after this module loaded.
  // A first call the server already answered in the page is answered from there, without a round trip.
  const response = takeInitialAnswer(request) ?? (await globalThis.fetch(request));
  if (response.status === 204 || response.headers.get('content-length') === '0') {
    return response.ok ? { data: undefined, response } : { error: undefined, response };
  }
  if (response.ok) return { data: (await response.json()) as unknown, response };
  const text = await response.text();
  let error: unknown = text;
  try {
    error = JSON.parse(text);
  } catch {
    // Not JSON: the text itself.
  }
  return { error, response };
}

export const api = { GET: get } as unknown as Pick<Client<paths>, 'GET'>;

/** Where the server embeds the answers of the API calls a page makes first (`<script type="application/json">`). */
export const INITIAL_DATA_ELEMENT_ID = 'marque-data';

/** One embedded answer: the call's path and query, and the 200 body the API gave. */
export type InitialAnswer = { path: string; query: Record<string, string>; body: unknown };

let initialAnswers: InitialAnswer[] | null = null;

function readInitialAnswers(): InitialAnswer[] {
  const text = typeof document === 'undefined' ? null : document.getElementById(INITIAL_DATA_ELEMENT_ID)?.textContent;
  if (!text) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed)
      ? parsed.filter(
          (a): a is InitialAnswer =>
            typeof a === 'object' && a !== null && typeof a.path === 'string' && typeof a.query === 'object' && a.query !== null,
        )
      : [];
  } catch {
    return [];
  }
}

function sameQuery(expected: Record<string, string>, actual: URLSearchParams): boolean {
  const keys = [...new Set(actual.keys())];
  return (
    keys.length === Object.keys(expected).length &&
    keys.every((key) => actual.getAll(key).length === 1 && actual.get(key) === expected[key])
  );
}

/** The embedded answer for `url` (this page's origin, same path and query), taken out of the list. */
function takeAnswer(url: URL): InitialAnswer | undefined {
  if (typeof location === 'undefined' || url.origin !== location.origin) return undefined;
  initialAnswers ??= readInitialAnswers();
  const index = initialAnswers.findIndex((a) => a.path === url.pathname && sameQuery(a.query, url.searchParams));
  return index < 0 ? undefined : initialAnswers.splice(index, 1)[0];
}

/**
 * The embedded answer to a GET of this page's origin with the same path and query, taken once: later calls
 * (another visit of the page without a reload, a retry) ask the server.
 */
export function takeInitialAnswer(request: Request): Response | undefined {
  if (request.method !== 'GET') return undefined;
  const answer = takeAnswer(new URL(request.url));
  if (!answer) return undefined;
  return new Response(JSON.stringify(answer.body), { status: 200, headers: { 'content-type': 'application/json' } });
}

/**
 * The body the server embedded in this page for the GET `api.GET(path, { params })` would make, at once (no
 * promise), taken once as `api.GET` takes it; undefined when the page has none for it. A hook draws its first
 * render from this, so an embedded page paints its content in its first frame.
 */
export function initialBody<P extends GetPath>(path: P, params?: GetInit['params']): OkBody<P> | undefined {
  return takeAnswer(new URL(urlOf(path, { params })))?.body as OkBody<P> | undefined;
}

/** For tests: read the embedded answers again on the next call. */
export function forgetInitialAnswers() {
  initialAnswers = null;
}

/** Unwraps an openapi-fetch result: the body on success, an ApiError otherwise. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data !== undefined) return result.data;
  const error = result.error as { message?: unknown; code?: unknown } | undefined;
  const message = typeof error?.message === 'string' ? error.message : `HTTP ${result.response.status}`;
  throw new ApiError(result.response.status, message, typeof error?.code === 'string' ? error.code : undefined);
}
