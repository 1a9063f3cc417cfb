// A fake Marque server for tests: stubs `fetch` and answers by path, with bodies typed by the contract.
import type { GetPath, OkBody } from './index';

type Handler<P extends GetPath> = (request: { url: URL; params: Record<string, string> }) =>
  | OkBody<P>
  | Response
  | Promise<OkBody<P> | Response>;

export type FakeRoutes = { [P in GetPath]?: Handler<P> };

/** A `{ status: "failed", message }` answer (with its stable `code` when given), the API's error shape. */
export function failed(status: number, message: string, code?: string): Response {
  return Response.json(code === undefined ? { status: 'failed', message } : { status: 'failed', message, code }, { status });
}

/** Answers that simulate the network going away: fetch rejects, as browsers do. */
export function networkDown(): never {
  throw new TypeError('Failed to fetch');
}

export type FakeServer = {
  /** Every request the page made, in order, as path + query. */
  readonly requests: string[];
  restore(): void;
};

/**
 * Replaces globalThis.fetch with a server that knows only `routes` (GET only); other paths get a 404
 * in the API's error shape, so a test never reaches the real network.
 */
export function fakeServer(routes: FakeRoutes): FakeServer {
  const original = globalThis.fetch;
  const requests: string[] = [];
  const table = Object.entries(routes).map(([template, handler]) => ({
    template,
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, '(?<$1>[^/]+)')}$`),
    handler: handler as Handler<GetPath>,
  }));

  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'), init);
    const url = new URL(request.url);
    requests.push(url.pathname + url.search);
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
    restore() {
      globalThis.fetch = original;
    },
  };
}
