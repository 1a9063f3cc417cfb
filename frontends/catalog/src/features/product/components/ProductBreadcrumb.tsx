// Where the product sits, following how the visitor came: Home › brand › product after a brand
// page, Home › category › subcategory › product otherwise. Also given to search engines as a
// schema.org BreadcrumbList.
import type { Product } from '@marque/api-client';
import { useT } from '@marque/i18n';
import { brandHref, productHref } from '@marque/ui';
import { Link } from 'wouter';
import type { BrandArrival } from '../../../lib/arrival';

export type Crumb = { name: string; href: string };

export const categoryHref = (categorySlug: string) => `/category/${encodeURIComponent(categorySlug)}`;
export const subcategoryHref = (categorySlug: string, subcategorySlug: string) =>
  `/subcategory/${encodeURIComponent(categorySlug)}/${encodeURIComponent(subcategorySlug)}?page=1`;

// The product's own brand name when it is that brand; else the name the brand page showed.
function brandName(product: Product, arrival: BrandArrival): string {
  return (product.oem_slug === arrival.slug && product.oem) || arrival.name || arrival.slug;
}

/** The trail from home to `product`; a level the product lacks (no name or slug) is left out. */
export function breadcrumbTrail(product: Product, arrival: BrandArrival | null, home: string): Crumb[] {
  const middle: Crumb[] = arrival
    ? [{ name: brandName(product, arrival), href: brandHref(arrival.slug) }]
    : [
        { name: product.category, href: product.category_slug ? categoryHref(product.category_slug) : '' },
        {
          name: product.subcategory,
          href:
            product.category_slug && product.subcategory_slug
              ? subcategoryHref(product.category_slug, product.subcategory_slug)
              : '',
        },
      ];
  return [
    { name: home, href: '/' },
    ...middle.filter((crumb) => crumb.name && crumb.href),
    { name: product.name, href: productHref(product._id) },
  ];
}

/**
 * The trail as JSON-LD, safe inside a `<script>` element: `<`, `>` and `&` are written as JSON
 * escapes, so a name holding `</script>` or `<!--` cannot end or bend the element.
 */
export function breadcrumbJsonLd(trail: readonly Crumb[], origin: string): string {
  const list = {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: trail.map((crumb, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: crumb.name,
      item: new URL(crumb.href, origin).href,
    })),
  };
  return JSON.stringify(list)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export function ProductBreadcrumb({ product, arrival }: { product: Product; arrival: BrandArrival | null }) {
  const t = useT('product');
  const trail = breadcrumbTrail(product, arrival, t('breadcrumb.home'));
  const last = trail.length - 1;
  return (
    <>
      <nav className="breadcrumb" aria-label={t('breadcrumb.label')}>
        <ol>
          {trail.map((crumb, index) => (
            <li key={crumb.href}>
              {index < last ? (
                <Link href={crumb.href}>{crumb.name}</Link>
              ) : (
                <span aria-current="page">{crumb.name}</span>
              )}
            </li>
          ))}
        </ol>
      </nav>
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: breadcrumbJsonLd(trail, location.origin) }} />
    </>
  );
}
