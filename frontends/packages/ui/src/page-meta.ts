// The page's head after client-side navigation: the server renders title, description and canonical link
// for the first page only; these keep them right on every page the visitor opens after it.
import { useEffect } from 'react';

/** The server's default description (config `shop_description`); used if the first page had its own. */
export const FALLBACK_DESCRIPTION = 'Buy new and used spare parts for luxury cars online.';

/** First pages whose server-rendered description is their own rather than the shop's default. */
const OWN_DESCRIPTION = /^\/(product|brand\/[^/]+)\/?$/;

/** The query parameters that make a different page, per route; every other parameter is dropped. */
const LISTING = ['page', 'oem', 'product_type', 'fuel_type'];
const MEANINGFUL: Array<[RegExp, string[]]> = [
  [/^\/search$/, ['search', 'page']],
  [/^\/product$/, ['productId']],
  [/^\/(category\/[^/]+|subcategory\/[^/]+\/[^/]+)$/, LISTING],
  [/^\/brand\/[^/]+$/, ['page']],
];

/** The canonical path of an address: the path and, where they matter, its query parameters in a fixed order. */
export function canonicalPath(path: string, search: string): string {
  const clean = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const keep = MEANINGFUL.find(([pattern]) => pattern.test(clean))?.[1] ?? [];
  const given = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  const kept = new URLSearchParams();
  for (const name of keep) {
    const value = given.get(name);
    if (value !== null) kept.set(name, value);
  }
  const query = kept.toString().replace(/\+/g, '%20');
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
