// What the shell loads as 'catalog/Category'.
import { injectCatalogStyles } from '../styles/inject';

injectCatalogStyles();

export { CategoryPage as default } from '../features/category/components/CategoryPage';
