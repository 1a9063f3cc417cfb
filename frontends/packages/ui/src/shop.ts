// What the storefront says about the shop itself: demo defaults, to be replaced by the shop's configuration.

export const SHOP_NAME = 'Marque Parts';

export const SUPPORT_EMAIL = 'support@marque-parts.example';
export const PRIVACY_EMAIL = 'privacy@marque-parts.example';
export const ENQUIRY_PHONE = '+91 XXXXX XXXXX';

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
