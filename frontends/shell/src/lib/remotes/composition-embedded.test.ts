import { afterEach, describe, expect, it, vi } from 'vitest';

const registerRemotes = vi.fn();
vi.mock('@module-federation/runtime', () => ({ registerRemotes }));

describe('ensureComposition', () => {
  afterEach(() => {
    document.getElementById('marque-composition')?.remove();
    vi.unstubAllGlobals();
    vi.resetModules();
    registerRemotes.mockReset();
  });

  it('registers the composition the server embedded in the page, without asking /composition.json', async () => {
    const script = document.createElement('script');
    script.id = 'marque-composition';
    script.type = 'application/json';
    script.textContent = JSON.stringify({ catalog: '/remotes/catalog/remoteEntry.js' });
    document.head.append(script);
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const { ensureComposition } = await import('./composition');
    await ensureComposition();
    expect(fetch).not.toHaveBeenCalled();
    expect(registerRemotes).toHaveBeenCalledWith([
      { name: 'catalog', entry: new URL('/remotes/catalog/remoteEntry.js', location.href).href },
    ]);
  });

  it('asks /composition.json when the page has none', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ account: '/remotes/account/remoteEntry.js' })));
    vi.stubGlobal('fetch', fetch);
    const { ensureComposition } = await import('./composition');
    await ensureComposition();
    expect(fetch).toHaveBeenCalledWith('/composition.json', { cache: 'no-cache' });
    expect(registerRemotes).toHaveBeenCalledWith([
      { name: 'account', entry: new URL('/remotes/account/remoteEntry.js', location.href).href },
    ]);
  });
});
