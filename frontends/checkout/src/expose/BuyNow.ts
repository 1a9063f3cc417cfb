// What other apps load as 'checkout/BuyNow'.
import { injectControlStyles } from '../styles/controls';

injectControlStyles();

export { BuyNow as default } from '../features/cart/components/BuyNow';
