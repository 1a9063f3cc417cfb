// What the shell loads as 'checkout/CartPanel'.
import { injectCheckoutStyles } from '../styles/pages';

injectCheckoutStyles();

export { CartPanel as default } from '../features/cart/components/CartPanel';
