// What other apps load as 'checkout/CartButton'.
import { injectControlStyles } from '../styles/controls';

injectControlStyles();

export { CartButton as default } from '../features/cart/components/CartButton';
