import { afterEach, describe, expect, it } from 'vitest';
import { api, ApiError, forgetInitialAnswers, INITIAL_DATA_ELEMENT_ID, initialBody, unwrap } from './index';
import { embedInitialAnswers, failed, fakeServer, type FakeServer } from './testing';

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

describe('answers embedded in the page', () => {
  const embed = embedInitialAnswers;
  afterEach(() => {
    document.getElementById(INITIAL_DATA_ELEMENT_ID)?.remove();
    forgetInitialAnswers();
  });
  const page = (n: number) => ({ status: 'success', results: [], pages: 9, page: n, total: 0 });

  it('answer the first call with the same path and query without the network, then the server answers', async () => {
    embed([{ path: '/api/get/productBySearch', query: { search: 'disc', page: '2' }, body: page(2) }]);
    server = fakeServer({ '/api/get/productBySearch': ({ url }) => page(Number(url.searchParams.get('page')) + 100) });
    const call = () => api.GET('/api/get/productBySearch', { params: { query: { page: 2, search: 'disc' } } });
    expect(unwrap(await call()).page).toBe(2);
    expect(server.requests).toHaveLength(0);
    expect(unwrap(await call()).page).toBe(102);
    expect(server.requests).toHaveLength(1);
  });

  it('leave a call with another query, or none, to the server', async () => {
    embed([
      { path: '/api/get/productBySearch', query: { search: 'disc', page: '2' }, body: page(2) },
      { path: '/api/get/productBySearch', query: { search: 'disc', page: '1', oem: 'bmw' }, body: page(1) },
      'not an answer',
    ]);
    server = fakeServer({ '/api/get/productBySearch': ({ url }) => page(Number(url.searchParams.get('page')) + 100) });
    const body = unwrap(await api.GET('/api/get/productBySearch', { params: { query: { search: 'disc', page: 1 } } }));
    expect(body.page).toBe(101);
    expect(server.requests).toHaveLength(1);
  });

  it('give a first render the body at once, once, and leave the next call to the server', async () => {
    embed([{ path: '/api/get/productByOem/land%20rover', query: { page: '3' }, body: page(3) }]);
    server = fakeServer({ '/api/get/productByOem/{brandSlug}': () => page(103) });
    const params = { path: { brandSlug: 'land rover' }, query: { page: 3 } };
    expect(initialBody('/api/get/productByOem/{brandSlug}', { ...params, query: { page: 4 } })).toBeUndefined();
    expect(initialBody('/api/get/productByOem/{brandSlug}', params)?.page).toBe(3);
    expect(initialBody('/api/get/productByOem/{brandSlug}', params)).toBeUndefined();
    expect(unwrap(await api.GET('/api/get/productByOem/{brandSlug}', { params })).page).toBe(103);
  });

  it('are ignored when the element is not JSON', async () => {
    embed([]);
    const element = document.getElementById(INITIAL_DATA_ELEMENT_ID);
    if (element) element.textContent = '{not json';
    forgetInitialAnswers();
    server = fakeServer({ '/api/get/productBySearch': () => page(5) });
    expect(unwrap(await api.GET('/api/get/productBySearch', { params: { query: { search: '', page: 5 } } })).page).toBe(5);
  });
});
