import { afterEach, describe, expect, it } from 'vitest';
import { api, ApiError, unwrap } from './index';
import { failed, fakeServer, type FakeServer } from './testing';

let server: FakeServer | undefined;
afterEach(() => server?.restore());

describe('api client', () => {
  it('sends the search term and page as query parameters', async () => {
    server = fakeServer({
      '/api/get/productBySearch': ({ url }) => ({
        status: 'success',
        results: [],
        pages: 0,
        page: Number(url.searchParams.get('page')),
        total: 0,
      }),
    });
    const body = unwrap(await api.GET('/api/get/productBySearch', { params: { query: { search: 'A 000-180', page: 3 } } }));
    expect(body.page).toBe(3);
    const sent = new URL(server.requests[0] ?? '', 'http://shop');
    expect(sent.pathname).toBe('/api/get/productBySearch');
    expect(sent.searchParams.get('search')).toBe('A 000-180');
  });

  it('fills path parameters', async () => {
    server = fakeServer({
      '/api/get/productById/{id}': ({ params }) => failed(404, `no ${params.id}`),
    });
    const result = await api.GET('/api/get/productById/{id}', { params: { path: { id: 'p 1' } } });
    expect(server.requests).toEqual(['/api/get/productById/p%201']);
    expect(() => unwrap(result)).toThrowError(new ApiError(404, 'no p 1'));
  });

  it('answers 404 in the API error shape for paths the fake does not know', async () => {
    server = fakeServer({});
    const result = await api.GET('/api/get/category');
    expect(result.response.status).toBe(404);
    expect(result.error).toEqual({ status: 'failed', message: 'No fake for /api/get/category' });
  });
});
