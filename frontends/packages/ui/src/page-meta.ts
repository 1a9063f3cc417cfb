// The page's head after client-side navigation: the server renders title, description and canonical link
// for the first page only; these keep them right on every page the visitor opens after it.
import { useEffect } from 'react';

/** The server's default description (config `shop_description`); used if the first page had its own. */
export const FALLBACK_DESCRIPTION = 'Buy new and used spare parts for luxury cars online.';

/** First pages whose server-rendered description is their own rather than the shop's default. */
const OWN_DESCRIPTION = /^\/(product|brand\/[^/]+)\/?$/;

/** A page number as the server reads it: a whole number from 1, anything else page 1. */
function pageNumber(raw: string | null): string {
  const n = Number(raw ?? '');
  return Number.isInteger(n) && n >= 1 && n <= 100_000 ? String(n) : '1';
}

/**
 * The query of a page's canonical address, the same as the server renders for a first visit: search keeps the
 * term and page, brand pages their page, a product its id; category and subcategory listings point at their
 * first, unfiltered page (filtered views are not separate pages for search engines). Other parameters drop.
 */
const CANONICAL_QUERY: Array<[RegExp, (given: URLSearchParams) => Array<[string, string]>]> = [
  [/^\/search$/, (q) => [['search', (q.get('search') ?? '').trim()], ['page', pageNumber(q.get('page'))]]],
  [/^\/product$/, (q) => (q.has('productId') ? [['productId', q.get('productId') ?? '']] : [])],
  [/^\/(category\/[^/]+|subcategory\/[^/]+\/[^/]+)$/, () => [['page', '1']]],
  [/^\/brand\/[^/]+$/, (q) => [['page', pageNumber(q.get('page'))]]],
];

/** The canonical path of an address: the path and, where they matter, its query parameters in a fixed order. */
export function canonicalPath(path: string, search: string): string {
  const clean = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const given = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  const pairs = CANONICAL_QUERY.find(([pattern]) => pattern.test(clean))?.[1](given) ?? [];
  const query = new URLSearchParams(pairs).toString();
  return query ? `${clean}?${query}` : clean;
}

function metaContent(selector: string, content: string) {
  document.head.querySelector<HTMLMetaElement>(selector)?.setAttribute('content', content);
}

let defaultDescription: string | null = null;
/** Where the default is kept for every bundle of this package (the shell and each remote have their own copy). */
const DEFAULT_ATTRIBUTE = 'data-marque-default';

/** The shop's default description, read from the server's first page once. */
export function shopDescription(): string {
  if (defaultDescription === null) {
    const meta = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
    const kept = meta?.getAttribute(DEFAULT_ATTRIBUTE);
    const initial = meta?.content ?? '';
    defaultDescription = kept || (initial && !OWN_DESCRIPTION.test(location.pathname) ? initial : FALLBACK_DESCRIPTION);
    meta?.setAttribute(DEFAULT_ATTRIBUTE, defaultDescription);
  }
  return defaultDescription;
}

/** Sets the description (and og:description); the default one when `description` is empty. */
export function setDescription(description?: string) {
  const text = description?.trim() || shopDescription();
  let meta = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = 'description';
    meta.setAttribute(DEFAULT_ATTRIBUTE, shopDescription());
    document.head.append(meta);
  }
  meta.content = text;
  metaContent('meta[property="og:description"]', text);
}

/** A page's own description while it is shown; the shop's default again when it goes. */
export function usePageDescription(description?: string) {
  useEffect(() => {
    shopDescription();
    setDescription(description);
    return () => setDescription();
  }, [description]);
}

/** Points `<link rel="canonical">` (and og:url) at this address, on the origin the server announced. */
export function setCanonical(path: string, search: string) {
  let link = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]');
  const origin = link?.href ? new URL(link.href, location.href).origin : location.origin;
  if (!link) {
    link = document.createElement('link');
    link.rel = 'canonical';
    document.head.append(link);
  }
  const href = origin + canonicalPath(path, search);
  link.href = href;
  metaContent('meta[property="og:url"]', href);
}

/** Keeps the canonical link on the current address; the shell calls it with the router's location. */
export function useCanonicalLink(path: string, search: string) {
  useEffect(() => {
    // Before the first change, so that the server's own text is what counts as the default.
    shopDescription();
    setCanonical(path, search);
  }, [path, search]);
}
