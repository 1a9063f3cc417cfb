// What the shell loads as 'account/OrderHistory'.
import { injectAccountStyles } from '../styles/inject';

injectAccountStyles();

export { OrderHistoryPage as default } from '../features/orders/components/OrderHistoryPage';
