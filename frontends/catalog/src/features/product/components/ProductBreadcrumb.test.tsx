import { fakeServer, type FakeServer } from '@marque/api-client/testing';
import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { aProduct } from '../../../test/fixtures';
import { brandArrivalState } from '../../../lib/arrival';
import { breadcrumbJsonLd } from './ProductBreadcrumb';
import { ProductPage } from './ProductPage';

let server: FakeServer | undefined;
afterEach(() => server?.restore());

async function openProduct(state: unknown, product = aProduct()) {
  server = fakeServer({ '/api/get/productById/{id}': () => ({ status: 'success', data: product }) });
  window.history.replaceState(state, '', `/product?productId=${product._id}`);
  const { container } = render(<ProductPage />);
  await screen.findByRole('heading', { level: 1 });
  const trail = screen.getByRole('navigation', { name: 'Breadcrumb' });
  const crumbs = within(trail)
    .getAllByRole('listitem')
    .map((li) => [li.textContent, li.querySelector('a')?.getAttribute('href') ?? null]);
  const script = container.querySelector('script[type="application/ld+json"]');
  return { crumbs, trail, jsonLd: JSON.parse(script?.textContent ?? 'null'), raw: script?.textContent ?? '' };
}

describe('the product breadcrumb', () => {
  it('follows the category on a fresh load: Home › category › subcategory › product', async () => {
    const { crumbs, trail, jsonLd } = await openProduct(null);
    expect(crumbs).toEqual([
      ['Home', '/'],
      ['Brakes', '/category/brakes'],
      ['Brake Discs', '/subcategory/brakes/brake-discs?page=1'],
      [aProduct().name, null],
    ]);
    expect(within(trail).getByText(aProduct().name).getAttribute('aria-current')).toBe('page');

    expect(jsonLd).toEqual({
      '@context': 'https://schema.org',
      '@type': 'BreadcrumbList',
      itemListElement: [
        { '@type': 'ListItem', position: 1, name: 'Home', item: 'http://localhost:3000/' },
        { '@type': 'ListItem', position: 2, name: 'Brakes', item: 'http://localhost:3000/category/brakes' },
        {
          '@type': 'ListItem',
          position: 3,
          name: 'Brake Discs',
          item: 'http://localhost:3000/subcategory/brakes/brake-discs?page=1',
        },
        { '@type': 'ListItem', position: 4, name: aProduct().name, item: 'http://localhost:3000/product?productId=p-1' },
      ],
    });
  });

  it('follows the brand when the visitor came from a brand page: Home › brand › product', async () => {
    const { crumbs, jsonLd } = await openProduct(brandArrivalState('bmw', 'BMW'));
    expect(crumbs).toEqual([
      ['Home', '/'],
      ['BMW', '/brand/bmw?page=1'],
      [aProduct().name, null],
    ]);
    expect(jsonLd.itemListElement.map((item: { name: string; item: string }) => [item.name, item.item])).toEqual([
      ['Home', 'http://localhost:3000/'],
      ['BMW', 'http://localhost:3000/brand/bmw?page=1'],
      [aProduct().name, 'http://localhost:3000/product?productId=p-1'],
    ]);
  });

  it('ignores history state that is not a brand arrival', async () => {
    const { crumbs } = await openProduct({ marqueArrival: { from: 'brand' }, other: 1 });
    expect(crumbs.map(([name]) => name)).toEqual(['Home', 'Brakes', 'Brake Discs', aProduct().name]);
  });

  it('keeps a name holding </script> inside the JSON-LD element', async () => {
    const name = 'Bracket </script><script>alert(1)</script> & <!-- seal';
    const { raw, jsonLd } = await openProduct(null, aProduct({ name }));
    expect(raw).not.toContain('<');
    expect(raw).not.toContain('>');
    expect(raw).toContain('\\u003c/script\\u003e');
    expect(jsonLd.itemListElement[3].name).toBe(name);
    expect(document.querySelectorAll('script')).toHaveLength(1);
  });

  it('escapes the characters that could end a script element or a JavaScript string', () => {
    const json = breadcrumbJsonLd([{ name: '</script>\u2028&', href: '/' }], 'https://shop.example');
    expect(json).toContain('"name":"\\u003c/script\\u003e\\u2028\\u0026"');
    expect(JSON.parse(json).itemListElement[0]).toEqual({
      '@type': 'ListItem',
      position: 1,
      name: '</script>\u2028&',
      item: 'https://shop.example/',
    });
  });
});
