// A fake Marque server for tests: stubs `fetch` and answers by path, with bodies typed by the contract.
import { forgetInitialAnswers, INITIAL_DATA_ELEMENT_ID } from './index';
import type { Answer, Call, FormFields, GetPath, OkBody, RequestBody } from './index';

type Handler<P extends GetPath> = (request: { url: URL; params: Record<string, string> }) =>
  | OkBody<P>
  | Response
  | Promise<OkBody<P> | Response>;

export type FakeRoutes = { [P in GetPath]?: Handler<P> };

/** The body a fake sees for `C`: the document's JSON body, a multipart call's FormData, or nothing. */
export type FakeBody<C extends Call> = [RequestBody<C>] extends [never]
  ? [FormFields<C>] extends [never]
    ? undefined
    : FormData
  : RequestBody<C>;

type CallHandler<C extends Call> = (request: {
  url: URL;
  params: Record<string, string>;
  request: Request;
  body: FakeBody<C>;
}) => Answer<C> | Response | Promise<Answer<C> | Response>;

/**
 * Any operation of the API document, keyed `'METHOD /path/{param}'` as the document names it (a request to the
 * same path with a trailing slash matches too). The handler sees the request and its body, typed by the document
 * (JSON parsed, or FormData for multipart), and answers with the document's 200 body or a Response.
 */
export type FakeCalls = { [C in Call]?: CallHandler<C> };

/** One request as the fake server saw it. */
export type FakeCall = { method: string; path: string; headers: Headers; body: unknown };

/** A `{ status: "failed", message }` answer (with its stable `code` when given), the API's error shape. */
export function failed(status: number, message: string, code?: string): Response {
  return Response.json(code === undefined ? { status: 'failed', message } : { status: 'failed', message, code }, { status });
}

/**
 * Writes `answers` into the page as the server embeds its first answers (replacing any there), read afresh by the
 * next call.
 */
export function embedInitialAnswers(answers: unknown) {
  document.getElementById(INITIAL_DATA_ELEMENT_ID)?.remove();
  const script = document.createElement('script');
  script.id = INITIAL_DATA_ELEMENT_ID;
  script.type = 'application/json';
  script.textContent = JSON.stringify(answers);
  document.head.append(script);
  forgetInitialAnswers();
}

/** Answers that simulate the network going away: fetch rejects, as browsers do. */
export function networkDown(): never {
  throw new TypeError('Failed to fetch');
}

export type FakeServer = {
  /** Every request the page made, in order, as path + query. */
  readonly requests: string[];
  /** Every request with its method, headers and body, in order. */
  readonly calls: FakeCall[];
  restore(): void;
};

/**
 * Replaces globalThis.fetch with a server that knows only `routes` (GET only); other paths get a 404
 * in the API's error shape, so a test never reaches the real network.
 */
export function fakeServer(routes: FakeRoutes, others: FakeCalls = {}): FakeServer {
  const original = globalThis.fetch;
  const requests: string[] = [];
  const calls: FakeCall[] = [];
  const patternOf = (template: string, trailingSlash = '') =>
    new RegExp(
      `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, '(?<$1>[^/]+)')}${trailingSlash}$`,
    );
  const table = Object.entries(routes).map(([template, handler]) => ({
    template,
    pattern: patternOf(template),
    handler: handler as Handler<GetPath>,
  }));
  const extra = Object.entries(others).map(([key, handler]) => {
    const [method = 'GET', template = ''] = key.split(' ', 2);
    return { method, pattern: patternOf(template, '/?'), handler: handler as CallHandler<Call> };
  });
  const paramsOf = (match: RegExpExecArray) =>
    Object.fromEntries(Object.entries(match.groups ?? {}).map(([name, value]) => [name, decodeURIComponent(value)]));
  const bodyOf = async (request: Request): Promise<unknown> => {
    if (request.method === 'GET' || request.method === 'HEAD' || request.body === null) return undefined;
    const type = request.headers.get('content-type') ?? '';
    if (type.includes('multipart/form-data')) return request.formData();
    const text = await request.text();
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  };

  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    // A test DOM's FormData is not the one `Request` knows: keep it as it is instead of letting it become text.
    const form = typeof FormData !== 'undefined' && init?.body instanceof FormData ? init.body : null;
    const request =
      input instanceof Request
        ? input
        : new Request(new URL(String(input), 'http://localhost'), form ? { ...init, body: undefined } : init);
    const url = new URL(request.url);
    requests.push(url.pathname + url.search);
    const body = form ?? (await bodyOf(request.clone()));
    calls.push({ method: request.method, path: url.pathname + url.search, headers: request.headers, body });
    for (const route of extra) {
      const match = route.method === request.method ? route.pattern.exec(url.pathname) : null;
      if (!match) continue;
      const answer = await route.handler({ url, params: paramsOf(match), request, body: body as FakeBody<Call> });
      return answer instanceof Response ? answer : Response.json(answer);
    }
    if (request.method !== 'GET') return failed(405, `No fake for ${request.method} ${url.pathname}`);
    for (const route of table) {
      const match = route.pattern.exec(url.pathname);
      if (!match) continue;
      const params = Object.fromEntries(
        Object.entries(match.groups ?? {}).map(([name, value]) => [name, decodeURIComponent(value)]),
      );
      const answer = await route.handler({ url, params });
      return answer instanceof Response ? answer : Response.json(answer);
    }
    return failed(404, `No fake for ${url.pathname}`);
  };

  return {
    requests,
    calls,
    restore() {
      globalThis.fetch = original;
    },
  };
}
