// Puts the catalog's own stylesheets into the page once, when the first catalog page is loaded.
import css from './catalog.css?raw';
import homeProductCss from './home-product.css?raw';
import listingCss from './listing.css?raw';
import { injectSheet } from './sheet';

const STYLES = [
  { id: 'marque-catalog-styles', css },
  { id: 'marque-listing-styles', css: listingCss },
  { id: 'marque-home-product-styles', css: homeProductCss },
];

export function injectCatalogStyles() {
  for (const sheet of STYLES) injectSheet(sheet.id, sheet.css);
}
