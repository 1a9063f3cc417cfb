// What the shell loads as 'catalog/Subcategory'.
import { injectCatalogStyles } from '../styles/inject';

injectCatalogStyles();

export { SubcategoryPage as default } from '../features/subcategory/components/SubcategoryPage';
