// The small stylesheet of the pieces every page shows: the header's cart icon, Add to cart / Go to cart, Buy now.
import css from './controls.css?raw';
import { injectStyles } from './inject';

export function injectControlStyles() {
  injectStyles('marque-checkout-controls', css);
}
