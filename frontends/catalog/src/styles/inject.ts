// Puts the catalog's own stylesheets into the page once, when the first catalog page is loaded.
import css from './catalog.css?raw';
import listingCss from './listing.css?raw';

const STYLE_ID = 'marque-catalog-styles';

export function injectCatalogStyles() {
  if (typeof document === 'undefined' || document.getElementById(STYLE_ID)) return;
  const style = document.createElement('style');
  style.id = STYLE_ID;
  style.textContent = `${css}\n${listingCss}`;
  document.head.appendChild(style);
}
