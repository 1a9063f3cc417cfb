// What the shell loads as 'checkout/OrderSuccess'.
import { injectCheckoutStyles } from '../styles/pages';

injectCheckoutStyles();

export { OrderSuccessPage as default } from '../features/order-success/components/OrderSuccessPage';
