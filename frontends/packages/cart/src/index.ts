// The shopper's cart and checkout choices, shared by the shell and every remote as one singleton.
export {
  addToCart,
  applyServerProduct,
  cancelPurchase,
  cartCount,
  changeQuantity,
  clearAddress,
  clearAfterPayment,
  clearOnHome,
  closeCartPanel,
  getCart,
  inCart,
  openCartPanel,
  orderableLines,
  removeFromCart,
  selectAddress,
  setReview,
  startPurchase,
  subscribeCart,
} from './store';
export { CART_KEY } from './storage';
export type * from './types';
export { useCart, useInCart } from './use-cart';
