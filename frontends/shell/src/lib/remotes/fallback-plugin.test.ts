import type { ModuleFederation } from '@module-federation/runtime';
import { describe, expect, it, vi } from 'vitest';
import remoteFallbackPlugin from './fallback-plugin';
import { isFallbackModule, setFallbackComponent } from './fallback-registry';

describe('remote fallback runtime plugin', () => {
  const origin = {} as ModuleFederation;

  it('answers a failed remote module with the fallback module', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const Fallback = () => null;
    setFallbackComponent(Fallback);
    const answer = await remoteFallbackPlugin().errorLoadRemote?.({
      id: 'catalog/Home',
      error: new Error('RUNTIME-003'),
      from: 'runtime',
      lifecycle: 'onLoad',
      origin,
    });
    expect(isFallbackModule(answer)).toBe(true);
    expect((answer as { default: unknown }).default).toBe(Fallback);
  });

  it('lets earlier stages fail so that loadRemote reports them once', async () => {
    const answer = await remoteFallbackPlugin().errorLoadRemote?.({
      id: '/remotes/catalog/remoteEntry.js',
      error: new Error('fetch failed'),
      from: 'runtime',
      lifecycle: 'afterResolve',
      origin,
    });
    expect(answer).toBeUndefined();
  });
});
