// What the shell loads as 'account/RenderInvoice'.
import { injectAccountStyles } from '../styles/inject';

injectAccountStyles();

export { InvoicePage as default } from '../features/orders/components/InvoicePage';
