// What the shell loads as 'catalog/Product'.
import { injectCatalogStyles } from '../styles/inject';

injectCatalogStyles();

export { ProductPage as default } from '../features/product/components/ProductPage';
