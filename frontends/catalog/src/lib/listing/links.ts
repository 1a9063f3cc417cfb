// Addresses of the listing pages.

export const categoryHref = (categorySlug: string, page = 1) =>
  `/category/${encodeURIComponent(categorySlug)}?page=${page}`;

export const subcategoryHref = (categorySlug: string, subcategorySlug: string, page = 1) =>
  `/subcategory/${encodeURIComponent(categorySlug)}/${encodeURIComponent(subcategorySlug)}?page=${page}`;
