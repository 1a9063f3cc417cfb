/// <reference types="node" />
// The layout rules that tests in jsdom cannot see: which screens get the drawer, the toggle and the list.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const css = readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'listing.css'), 'utf8');

/** The text of the `@media (…)` block with this condition. */
function mediaBlock(condition: string): string {
  const start = css.indexOf(`@media (${condition}) {`);
  expect(start, `@media (${condition})`).toBeGreaterThanOrEqual(0);
  let depth = 0;
  for (let i = css.indexOf('{', start); i < css.length; i += 1) {
    if (css[i] === '{') depth += 1;
    if (css[i] === '}' && --depth === 0) return css.slice(start, i);
  }
  throw new Error('unclosed block');
}

describe('listing.css', () => {
  it('makes the sidebar a hidden drawer below 768 px and a static column above, without the Filters button', () => {
    const small = mediaBlock('max-width: 767.98px');
    expect(small).toMatch(/\.filter-sidebar \{[^}]*position: fixed[^}]*visibility: hidden/);
    expect(small).toMatch(/\.filter-sidebar--open \{[^}]*visibility: visible/);
    const large = mediaBlock('min-width: 768px');
    expect(large).toMatch(/\.filter-drawer-toggle,\s*\.filter-backdrop,\s*\.filter-sidebar__close \{\s*display: none/);
  });

  it('offers the grid/list toggle and the list layout only from 1024 px', () => {
    expect(css).toMatch(/^\.view-toggle \{\s*display: none;\s*\}/m);
    const large = mediaBlock('min-width: 1024px');
    expect(large).toMatch(/\.view-toggle \{\s*display: inline-flex/);
    expect(large).toContain('.listing__results--list .product-grid');
    expect(css.indexOf('.listing__results--list')).toBeGreaterThan(css.indexOf('@media (min-width: 1024px)'));
  });
});
