// What the shell loads as 'catalog/Brand'.
import { injectCatalogStyles } from '../styles/inject';

injectCatalogStyles();

export { BrandPage as default } from '../features/brand/components/BrandPage';
