// What the shell loads as 'account/Wishlist'.
import { injectAccountStyles } from '../styles/inject';

injectAccountStyles();

export { WishlistPage as default } from '../features/wishlist/components/WishlistPage';
