// What the shell loads as 'account/WishlistHeart'.
import { injectAccountStyles } from '../styles/inject';

injectAccountStyles();

export { WishlistHeart as default } from '../features/wishlist/components/WishlistHeart';
