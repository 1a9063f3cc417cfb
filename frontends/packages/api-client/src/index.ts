// The typed HTTP client of the Marque API: types come from the generated schema and openapi-fetch's `Client`
// type; the calls are made here. The storefront only reads (GET), and openapi-fetch's run-time code (3 KB gzip in
// every remote) was more than a page's JavaScript budget could spare, so `api.GET` is a small function with the
// same signature and answers (`{ data }` on 2xx, `{ error }` with the parsed body otherwise, and `response`).
import type { Client } from 'openapi-fetch';
import firstLoads from '../../../../contract/first-loads.json';
import type { components, paths } from './schema';

export type { components, paths } from './schema';

/** The JSON body a GET operation answers with on 200, e.g. `OkBody<'/api/get/new-products'>`. */
export type OkBody<P extends GetPath> = JsonContent<GetOperation<P>['responses'][200]>;

export type GetPath = {
  [P in keyof paths]: paths[P] extends { get: { responses: { 200: unknown } } } ? P : never;
}[keyof paths];

type GetOperation<P extends GetPath> = paths[P] extends { get: infer Op extends { responses: { 200: unknown } } }
  ? Op
  : never;

type JsonContent<R> = R extends { content: { 'application/json': infer Body } } ? Body : never;

/** The methods an operation of the document can have. */
export type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** The document's operation at `P` for `M` (never when it has none). */
type OperationOf<P extends keyof paths, M extends Method> = paths[P] extends { [K in M]: infer Op } ? Op : never;

/** Every operation of the document as `'METHOD /path'`, e.g. `'POST /api/login'`, `'GET /api/user'`. */
export type Call = {
  [M in Method]: { [P in keyof paths]: [OperationOf<P, M>] extends [never] ? never : `${Uppercase<M>} ${P}` }[keyof paths];
}[Method];

/** The method of a call key, lower case (`'post'`). */
export type MethodOf<C extends Call> = C extends `${infer M} ${string}` ? Lowercase<M> & Method : never;
/** The path template of a call key (`'/api/user/{userId}'`). */
export type PathOf<C extends Call> = C extends `${string} ${infer P}` ? P & keyof paths : never;
/** The document's operation of a call key. */
export type Operation<C extends Call> = OperationOf<PathOf<C>, MethodOf<C>>;

/** The JSON body a call answers with on 200 (or 201, or 202 for work queued), e.g. `Answer<'POST /api/login'>`. */
export type Answer<C extends Call> =
  Operation<C> extends { responses: infer R }
    ? 200 extends keyof R
      ? JsonContent<R[200]>
      : 201 extends keyof R
        ? JsonContent<R[201]>
        : 202 extends keyof R
          ? JsonContent<R[202]>
          : never
    : never;

type RequestContent<C extends Call> = Operation<C> extends { requestBody?: { content: infer Content } } ? Content : never;
/** The JSON body a call takes, e.g. `RequestBody<'POST /api/login'>` is `{ email, password }`. */
export type RequestBody<C extends Call> = RequestContent<C> extends { 'application/json': infer Body } ? Body : never;
/** The fields of a multipart call's form (files as `Blob`), e.g. `FormFields<'POST /api/register'>`. */
export type FormFields<C extends Call> = RequestContent<C> extends { 'multipart/form-data': infer Form }
  ? { [K in keyof Form]?: Blob | string | null }
  : never;
/** The path parameters of a call (`{ userId: string }`). */
export type PathParams<C extends Call> = Operation<C> extends { parameters: { path: infer Path } } ? Path : never;

/** A multipart form with exactly the fields the document names (an empty or null field is left out). */
export function formBody<C extends Call>(_call: C, fields: FormFields<C>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields as Record<string, Blob | string | null | undefined>)) {
    if (value !== null && value !== undefined) form.set(name, value);
  }
  return form;
}

/** The document's shapes the frontends name (signed-in customer, wishlist, orders, addresses, checkout). */
type Schemas = components['schemas'];
export type User = Schemas['User'];
export type WishlistEntry = Schemas['WishlistEntry'];
export type Order = Schemas['Order'];
export type Address = Schemas['Address'];
export type CheckoutItem = Schemas['CheckoutItem'];

/** The failed answer of every operation: a 4xx with a message, a stable code and a 400's failing fields. */
export type Failed = Schemas['Error'] & Partial<Pick<Schemas['AddressError'], 'errors'>>;
/** One field a form call refused (400), with the message the form shows for it. */
export type FieldError = Schemas['FieldError'];

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

/** Where the server embeds the answers of the API calls a page makes first (`<script type="application/json">`),
 * named in contract/first-loads.json as the server reads it. */
export const INITIAL_DATA_ELEMENT_ID = firstLoads.scripts.answers;

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

/** For tests: the embedded answers no call has taken yet. */
export function initialAnswersLeft(): readonly InitialAnswer[] {
  initialAnswers ??= readInitialAnswers();
  return [...initialAnswers];
}

/** Unwraps an openapi-fetch result: the body on success, an ApiError otherwise. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data !== undefined) return result.data;
  const error = result.error as { message?: unknown; code?: unknown } | undefined;
  const message = typeof error?.message === 'string' ? error.message : `HTTP ${result.response.status}`;
  throw new ApiError(result.response.status, message, typeof error?.code === 'string' ? error.code : undefined);
}
