// The checkout calls' shapes (docs/checkout-api.md), declared by hand until the generated client has them.
import type { Address, CheckoutItem } from '@marque/cart';

export type CheckoutItemOk = { status: 'success'; data: CheckoutItem };
export type AddressesOk = { status: 'success'; message?: string; _id?: string; address: Address[] };
/** The address fields a form sends: an address without its `_id`. */
export type AddressFields = Omit<Address, '_id'> & { gstin: string };

export type PayRequest = {
  products: ReadonlyArray<{ _id: string; quantity: number }>;
  address: Address;
  discount: number;
  user_id: string;
};
export type PayOk = {
  status: 'success';
  /** The provider's order: `amount` in paise. */
  paymentResponse: { id: string; amount: number; currency: string };
  total: number;
  items: number;
  discount: number;
  delivery: number;
};
export type ShopPayment = { payment: { key: string; script: string } };
export type Ok = { status: 'success' };
