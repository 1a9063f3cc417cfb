// The shapes the cart keeps: the specification's cart item, checkout item and address.
import type { Address as ApiAddress, CheckoutItem as ApiCheckoutItem } from '@marque/api-client';

/** What the cart needs of a product to list it (the catalog's product and card shapes both have it). */
export type CartProduct = {
  _id: string;
  name: string;
  /** Rupees, GST included. */
  price: number;
  producttype: string;
  images: ReadonlyArray<{ name: string }>;
};

/** The specification's cart item: a product and the chosen quantity (from 1). */
export type CartLine = CartProduct & {
  quantity: number;
  /** The server no longer has the product: shown as no longer available and left out of CHECKOUT. */
  unavailable?: boolean;
  /** The price the shopper saw before the server's price changed: shown beside the new one, never silently charged. */
  previousPrice?: number;
};

/** A delivery address as the user object and the address calls give it (the API document's `Address`). */
export type Address = ApiAddress;

/** The specification's checkout item (`GET /api/get/checkoutById/{id}`, the API document's), `quantity` set to the
 * chosen one. */
export type CheckoutItem = ApiCheckoutItem;

export type CartState = {
  /** The cart, as kept in local storage under `products`. */
  lines: readonly CartLine[];
  /** Whether the cart panel is open. */
  panelOpen: boolean;
  /** The direct purchase (Buy now): one product, quantity 1; the cart icon hides while it is pending. */
  purchase: CartLine | null;
  /** The delivery address chosen on the address step. */
  address: Address | null;
  /** The lines reloaded and checked against stock on the address step, for the review page. */
  review: readonly CheckoutItem[] | null;
};
