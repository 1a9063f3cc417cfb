// What the shell loads as 'checkout/Review'.
import { injectCheckoutStyles } from '../styles/pages';

injectCheckoutStyles();

export { ReviewPage as default } from '../features/review/components/ReviewPage';
