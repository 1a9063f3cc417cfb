// Puts the catalog's own stylesheets into the page once, when the first catalog page is loaded.
import css from './catalog.css?raw';
import homeProductCss from './home-product.css?raw';
import listingCss from './listing.css?raw';

const STYLES = [
  { id: 'marque-catalog-styles', css },
  { id: 'marque-listing-styles', css: listingCss },
  { id: 'marque-home-product-styles', css: homeProductCss },
];

export function injectCatalogStyles() {
  if (typeof document === 'undefined') return;
  for (const sheet of STYLES) {
    if (document.getElementById(sheet.id)) continue;
    const style = document.createElement('style');
    style.id = sheet.id;
    style.textContent = sheet.css;
    document.head.appendChild(style);
  }
}
