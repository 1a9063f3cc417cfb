import { afterEach, describe, expect, it, vi } from 'vitest';
import { keepLanguage } from './language-sync';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the language kept with the account', () => {
  it('puts the language with the bearer token', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ language: 'hi' }), { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    await keepLanguage('hi', 'tok');
    expect(fetch).toHaveBeenCalledTimes(1);
    const [path, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(path).toBe('/api/account/language');
    expect(init.method).toBe('PUT');
    expect(new Headers(init.headers).get('authorization')).toBe('Bearer tok');
    expect(JSON.parse(String(init.body))).toEqual({ language: 'hi' });
  });

  it('only logs a refusal or a network failure', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{}', { status: 503 })));
    await expect(keepLanguage('en', 'tok')).resolves.toBeUndefined();
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('offline'))));
    await expect(keepLanguage('en', 'tok')).resolves.toBeUndefined();
    expect(logged).toHaveBeenCalledTimes(2);
  });
});
