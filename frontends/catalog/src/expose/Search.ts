// What the shell loads as 'catalog/Search'.
import { injectCatalogStyles } from '../styles/inject';

injectCatalogStyles();

export { SearchPage as default } from '../features/search/components/SearchPage';
