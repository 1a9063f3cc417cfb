// The accounts API's request and answer shapes, declared by hand until the generated client has them
// (packages/api-client/src/schema.d.ts). Swap these for the generated types after the contract lands.

/** One field a form call refused (400), with the message the form shows for it. */
export type FieldError = { field: string; message: string; code: string };

/** Every failed answer: 4xx with a message, a stable code where the server gives one, and a 400's failing fields. */
export type Failed = { status: 'failed'; message: string; code?: string; errors?: FieldError[] };

export type User = {
  _id: string;
  name: string;
  email: string;
  googleEmail: string;
  mobile: string;
  /** Whether a code sent to the email proved it (or Google vouched for it). */
  emailVerified: boolean;
  /** Whether a code sent by SMS proved the mobile number. */
  mobileVerified: boolean;
  /** The picture's address; empty when the customer has none. */
  profile: string;
  address: unknown[];
  offerExp: number;
  percentage: number;
};

export type RegisterOk = { status: 'success'; message: string; email: string; mobile: string };
export type MobileLoginOk = { status: 'success'; message: string; mobile: string };
export type EmailLoginAnswer =
  | { status: 'success'; message: string; token: string; email: string; mobile: string }
  | { status: 'not verified'; message: string; email: string; mobile: string };
export type VerifyRequest = { email?: string; mobile?: string; otp: string };
export type VerifyOk = { status: 'success'; message: string; token: string };
export type ResendRequest = { email?: string; mobile?: string };
export type ResendOk = { status: 'success'; message: string };
export type UserOk = { status: 'success'; user: User };
export type UpdateUserOk = { status: 'success'; user: User };

export type WishlistEntry = {
  /** The product's id. */
  _id: string;
  name: string;
  quantity: number;
  producttype: string;
  price: number;
  image: string;
  user_id: string;
};
export type WishlistOk = { status: 'success'; result: WishlistEntry[] };
export type AddWishlistAnswer = { status: 'success' } | Failed;

/** One product of a placed order, as it was sold (price in rupees, GST included). */
export type OrderProduct = { product_id: string; name: string; quantity: number; price: number; gst: number };

/** A placed order (docs/checkout-api.md); amounts in rupees, `createdAt` ISO 8601. */
export type Order = {
  _id: string;
  orderNumber: string;
  invoiceNumber: string;
  createdAt: string;
  products: OrderProduct[];
  /** The discount percent. */
  discount: number;
  discountAmount: number;
  deliveryCharge: number;
  total: number;
  /** Empty until shipped. */
  courier: string;
  /** Empty until shipped. */
  awb: string;
  order_status: number;
  order_status_string: string;
  user_name: string;
  address: {
    houseNo: string;
    street: string;
    landmark: string;
    city: string;
    state: string;
    pincode: string;
    mobileNo: string;
    gstin: string;
  };
};
export type OrderHistoryOk = { status: 'success'; result: Order[]; page: number; pages: number };
