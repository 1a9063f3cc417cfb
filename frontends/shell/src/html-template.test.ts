import { describe, expect, it } from 'vitest';
import template from '../public/index.html?raw';

// The server rewrites the page head of every storefront route; these are the parts it looks for.
const head = template.slice(template.indexOf('<head>'), template.indexOf('</head>'));

describe('shell page template', () => {
  it('has the default title exactly once', () => {
    expect(template.match(/<title>Marque Parts<\/title>/g)).toHaveLength(1);
    expect(template.match(/<title>/g)).toHaveLength(1);
  });

  it('has the head marker inside <head>', () => {
    expect(head).toContain('<!--marque-head-->');
  });

  it('is laid out for phones', () => {
    expect(head).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
  });
});
