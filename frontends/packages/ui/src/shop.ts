// What the storefront knows about the shop without asking the server: its default name, the footer's
// brands and the addresses of its pages. Contact details and the operator come from ./shop-identity.

/** The shop's name until the server's identity says otherwise (and the page template's default title). */
export const SHOP_NAME = 'Marque Parts';

/** The car brands the footer always links to, in the specification's order. */
export const FOOTER_OEM_BRANDS = [
  { slug: 'audi', name: 'Audi' },
  { slug: 'bmw', name: 'BMW' },
  { slug: 'mercedes-benz', name: 'Mercedes-Benz' },
  { slug: 'jaguar', name: 'Jaguar' },
  { slug: 'range-rover', name: 'Range Rover' },
  { slug: 'land-rover', name: 'Land Rover' },
  { slug: 'volvo', name: 'Volvo' },
  { slug: 'porsche', name: 'Porsche' },
] as const;

export const brandHref = (slug: string, page = 1) => `/brand/${encodeURIComponent(slug)}?page=${page}`;
export const productHref = (productId: string) => `/product?productId=${encodeURIComponent(productId)}`;
export const searchHref = (term: string, page = 1) => `/search?search=${encodeURIComponent(term)}&page=${page}`;
