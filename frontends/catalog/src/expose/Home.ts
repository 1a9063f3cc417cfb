// What the shell loads as 'catalog/Home'.
import { injectCatalogStyles } from '../styles/inject';

injectCatalogStyles();

export { HomePage as default } from '../features/home/components/HomePage';
