import { describe, expect, it } from 'vitest';
import { remotesFrom } from './composition';

describe('remotesFrom', () => {
  it('resolves relative entry URLs against the page and keeps absolute ones', () => {
    expect(
      remotesFrom(
        {
          catalog: '/remotes/catalog/remoteEntry.js',
          checkout: 'https://cdn.example.in/checkout/remoteEntry.js',
        },
        'https://shop.example.in/search?search=x&page=1',
      ),
    ).toEqual([
      { name: 'catalog', entry: 'https://shop.example.in/remotes/catalog/remoteEntry.js' },
      { name: 'checkout', entry: 'https://cdn.example.in/checkout/remoteEntry.js' },
    ]);
  });

  it('refuses a document that is not a map of names to URLs', () => {
    expect(() => remotesFrom(['catalog'], 'https://shop.example.in/')).toThrow(TypeError);
    expect(() => remotesFrom({ catalog: 42 }, 'https://shop.example.in/')).toThrow(/catalog/);
  });
});
