// What the shell loads as 'catalog/Product': the product page with the account remote's wishlist heart.
import { injectCatalogStyles } from '../styles/inject';

injectCatalogStyles();

export { ProductWithHeart as default } from '../features/product/components/ProductWithHeart';
