// What the shell loads as 'checkout/Address'.
import { injectCheckoutStyles } from '../styles/pages';

injectCheckoutStyles();

export { AddressPage as default } from '../features/address/components/AddressPage';
