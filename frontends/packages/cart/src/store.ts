// The cart's state and its only writers. One instance per page (the package is a federation singleton),
// so the header's icon, the panel, every Add to cart button and the checkout pages agree.
// It holds no shop rule and imports nothing: the quantities' limits and the prices' sums come from
// @marque/rules in the callers (the checkout remote), so this shared module stays small on every page.
import { CART_KEY, readLines, writeLines } from './storage';
import type { Address, CartLine, CartProduct, CartState, CheckoutItem } from './types';

const EMPTY: CartState = { lines: [], panelOpen: false, purchase: null, address: null, review: null };

let state: CartState = { ...EMPTY, lines: readLines() };
const listeners = new Set<() => void>();

export function getCart(): CartState {
  return state;
}

export function subscribeCart(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

function update(change: Partial<CartState>) {
  state = { ...state, ...change };
  for (const listener of listeners) listener();
}

function setLines(lines: readonly CartLine[]) {
  writeLines(lines);
  update({ lines });
}

function line(product: CartProduct, quantity: number): CartLine {
  const { _id, name, price, producttype, images } = product;
  return { _id, name, price, producttype, images: images.map(({ name: image }) => ({ name: image })), quantity };
}

// Another tab changed the cart (or this one cleared storage at logout): take the stored cart as it is now.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === CART_KEY || event.key === null) update({ lines: readLines() });
  });
}

// --- The cart's lines ---------------------------------------------------------------------------

export function inCart(productId: string): boolean {
  return state.lines.some((l) => l._id === productId);
}

/** Adds a product with `quantity` (the rules' first quantity); a product already in the cart stays as it is. */
export function addToCart(product: CartProduct, quantity: number) {
  if (inCart(product._id)) return;
  setLines([...state.lines, line(product, quantity)]);
}

export function removeFromCart(productId: string) {
  setLines(state.lines.filter((l) => l._id !== productId));
}

/** Changes a line's quantity by `step`, never below `minimum`; no upper bound here (stock is checked at NEXT). */
export function changeQuantity(productId: string, step: number, minimum: number) {
  setLines(state.lines.map((l) => (l._id === productId ? { ...l, quantity: Math.max(minimum, l.quantity + step) } : l)));
}

/** Distinct parts in the cart: the number on the header's icon. */
export function cartCount(lines: readonly CartLine[] = state.lines): number {
  return lines.length;
}

/** Lines that can be ordered: everything the server still has. */
export function orderableLines(lines: readonly CartLine[] = state.lines): CartLine[] {
  return lines.filter((l) => !l.unavailable);
}

/**
 * What the server says of a line now: `null` when the product is gone (the line is marked unavailable),
 * else its current name, images and price; a different price is kept beside the one the shopper saw.
 */
export function applyServerProduct(productId: string, current: CartProduct | null) {
  setLines(
    state.lines.map((l) => {
      if (l._id !== productId) return l;
      if (!current) return { ...l, unavailable: true };
      const fresh = line(current, l.quantity);
      const seen = l.previousPrice ?? l.price;
      return seen === fresh.price ? fresh : { ...fresh, previousPrice: seen };
    }),
  );
}

/** The shopper has seen the changed prices: they become the prices. */
function acknowledgePriceChanges() {
  if (!state.lines.some((l) => l.previousPrice !== undefined)) return;
  setLines(state.lines.map(({ previousPrice: _seen, ...rest }) => rest));
}

// --- The panel ----------------------------------------------------------------------------------

export function openCartPanel() {
  update({ panelOpen: true });
}

export function closeCartPanel() {
  acknowledgePriceChanges();
  update({ panelOpen: false });
}

// --- Direct purchase, address and review --------------------------------------------------------

/** Buy now: this product alone, in the rules' direct purchase quantity, instead of the cart (which is kept). */
export function startPurchase(product: CartProduct, quantity: number) {
  update({ purchase: line(product, quantity), review: null });
}

/** CHECKOUT from the cart: the cart is what is bought, not a pending direct purchase. */
export function cancelPurchase() {
  if (state.purchase !== null) update({ purchase: null, review: null });
}

export function selectAddress(address: Address | null) {
  update({ address });
}

/** The lines checked on the address step; the review page shows and pays these. */
export function setReview(items: readonly CheckoutItem[]) {
  update({ review: items });
}

// --- Clearing (the specification's three moments) ------------------------------------------------

/** After payment: the cart (storage and state), the address and the purchase product. */
export function clearAfterPayment() {
  writeLines([]);
  update({ lines: [], purchase: null, address: null, review: null, panelOpen: false });
}

/** Opening home or the purchase history: a pending purchase product and the selected address. */
export function clearOnHome() {
  if (state.purchase === null && state.address === null) return;
  update({ purchase: null, address: null, review: null });
}

/** Visiting the order confirmation: the selected address. */
export function clearAddress() {
  if (state.address !== null) update({ address: null });
}

/** For tests: the state as a fresh page with this storage would have it. */
export function reloadCart() {
  state = { ...EMPTY, lines: readLines() };
  for (const listener of listeners) listener();
}
