import { act, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Link, useLocation, useSearch } from 'wouter';
import { canonicalPath, useCanonicalLink, usePageDescription } from './page-meta';

const canonical = () => document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.getAttribute('href');
const description = () => document.head.querySelector<HTMLMetaElement>('meta[name="description"]')?.content;

/** The head the server renders for the first page. */
function serverHead(path: string, text: string) {
  document.head.innerHTML = `<meta name="description" content="${text}"><link rel="canonical" href="https://marqueparts.in${path}"><meta property="og:url" content="https://marqueparts.in${path}">`;
}

function Shell({ children }: { children?: React.ReactNode }) {
  const [path] = useLocation();
  useCanonicalLink(path, useSearch());
  return (
    <>
      <Link href="/search?search=brake%20pad&page=2&utm_source=mail">search</Link>
      <Link href="/category/brakes?fuel_type=diesel&page=3&sort=x&oem=bmw">category</Link>
      <Link href="/product?productId=p-7&ref=home">product</Link>
      <Link href="/about?x=1">about</Link>
      {children}
    </>
  );
}

function ProductPage({ text }: { text: string }) {
  usePageDescription(text);
  return null;
}

beforeEach(() => serverHead('/', 'Buy new and used spare parts for luxury cars online.'));
afterEach(() => {
  document.head.innerHTML = '';
});

describe('canonicalPath', () => {
  it('is the address the server names as canonical: meaningful parameters only, in a fixed order', () => {
    expect(canonicalPath('/search', '?page=2&search=oil filter&utm=x')).toBe('/search?search=oil+filter&page=2');
    expect(canonicalPath('/search', '')).toBe('/search?search=&page=1');
    expect(canonicalPath('/product', 'productId=p%2F1&x=y')).toBe('/product?productId=p%2F1');
    expect(canonicalPath('/brand/bmw', '?page=4&oem=audi')).toBe('/brand/bmw?page=4');
    expect(canonicalPath('/brand/bmw', '?page=abc')).toBe('/brand/bmw?page=1');
    expect(canonicalPath('/subcategory/brakes/pads', '?oem=bmw--audi&page=3&product_type=new')).toBe(
      '/subcategory/brakes/pads?page=1',
    );
    expect(canonicalPath('/category/brakes', '?oem=bmw')).toBe('/category/brakes?page=1');
    expect(canonicalPath('/about/', '?x=1')).toBe('/about');
    expect(canonicalPath('/', '')).toBe('/');
  });
});

describe('the canonical link', () => {
  it('follows client-side navigation, on the origin the server gave', async () => {
    const { getByRole } = render(<Shell />);
    expect(canonical()).toBe('https://marqueparts.in/');

    await userEvent.click(getByRole('link', { name: 'search' }));
    expect(canonical()).toBe('https://marqueparts.in/search?search=brake+pad&page=2');
    expect(document.head.querySelector('meta[property="og:url"]')?.getAttribute('content')).toBe(canonical());

    await userEvent.click(getByRole('link', { name: 'category' }));
    expect(canonical()).toBe('https://marqueparts.in/category/brakes?page=1');

    await userEvent.click(getByRole('link', { name: 'product' }));
    expect(canonical()).toBe('https://marqueparts.in/product?productId=p-7');

    await userEvent.click(getByRole('link', { name: 'about' }));
    expect(canonical()).toBe('https://marqueparts.in/about');
  });
});

describe('the description', () => {
  it("is a page's own while it is shown, and the server's default again after it", () => {
    const { rerender } = render(
      <Shell>
        <ProductPage text="Brake caliper for BMW 5 Series." />
      </Shell>,
    );
    expect(description()).toBe('Brake caliper for BMW 5 Series.');
    rerender(<Shell />);
    expect(description()).toBe('Buy new and used spare parts for luxury cars online.');
  });

  it("does not take a product page's description for the default when the visit starts there", async () => {
    // A fresh module, as on a new page load.
    const { vi } = await import('vitest');
    vi.resetModules();
    const fresh = await import('./page-meta');
    window.history.replaceState(null, '', '/product?productId=p-1');
    serverHead('/product?productId=p-1', 'Brake caliper for BMW 5 Series.');
    act(() => fresh.setDescription());
    expect(description()).toBe(fresh.FALLBACK_DESCRIPTION);
  });
});
