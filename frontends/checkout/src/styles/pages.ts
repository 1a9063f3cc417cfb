// The stylesheet of the cart panel and the checkout pages, put in when the first of them loads.
import css from './checkout.css?raw';
import { injectControlStyles } from './controls';
import { injectStyles } from './inject';

export function injectCheckoutStyles() {
  injectControlStyles();
  injectStyles('marque-checkout-styles', css);
}
