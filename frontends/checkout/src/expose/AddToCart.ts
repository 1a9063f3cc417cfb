// What other apps load as 'checkout/AddToCart'.
import { injectControlStyles } from '../styles/controls';

injectControlStyles();

export { AddToCart as default } from '../features/cart/components/AddToCart';
