// The back-office calls the API document does not describe yet, with the shapes the issue and the shared design
// give them, checked against the backend branches where they exist (staff, photos, customers, audit at 22:50 UTC). `AdminAnswer`/`AdminBody` (calls.ts) take the generated types as soon as `make contract` brings a call
// into the document, so an entry here only matters until its call lands; delete it then.

import type { Order } from '@marque/api-client';

/** One page of a list: `?page=&size=` answers `{results, pages, total}`. */
export type Paged<T> = { results: T[]; pages: number; total: number };

export type StaffMe = { _id: string; email: string; name: string; role: string; areas: string[] };
export type StaffMember = { _id: string; email: string; name: string; role: string; status?: string; createdAt?: number };
export type Dimensions = { length: number; width: number; height: number };
export type ProductImage = { _id?: string; name: string; width?: number; height?: number };

/** A product as the back office edits it: the API's Product field names plus the parts shop's own. */
export type AdminProduct = {
  _id: string;
  name: string;
  price: number;
  producttype: string;
  description: string;
  category_slug: string;
  subcategory_slug: string;
  oem_slug: string;
  fuelType: string;
  variant: string;
  partNo: string;
  inside_ncr: number;
  outside_ncr: number;
  gst: number;
  sku: string;
  alternateNumbers: string[];
  supersededNumbers: string[];
  hsn: string;
  warrantyDays: number;
  weightGrams: number;
  dimensionsMm: Dimensions;
  published: boolean;
  quantity: number;
  images?: ProductImage[];
};
export type ProductFields = Omit<AdminProduct, '_id' | 'images'>;

export type AdminSubcategory = { name: string; slug: string };
export type AdminCategory = { _id: string; name: string; slug: string; subcategories: AdminSubcategory[] };
export type AdminBrand = { _id: string; name: string; slug: string; image: string };

export type StockEntry = {
  _id?: string;
  delta: number;
  reason: string;
  note?: string | null;
  before: number;
  after: number;
  actor: string;
  actorLabel?: string;
  at: number;
};
export type LowStock = { _id: string; name: string; partNo: string; quantity: number; threshold: number };

export type AdminCustomer = {
  _id: string;
  name: string;
  email: string;
  mobile: string;
  percentage: number;
  offerExp: number;
  /** The offer's last day (YYYY-MM-DD, inclusive, India time), when one was set. */
  endsOn?: string | null;
};

export type AuditRecord = {
  _id?: string;
  at: number;
  actor: string;
  actorLabel?: string;
  action: string;
  subject: string;
  /** The changed fields before and after (JSON). */
  before?: unknown;
  after?: unknown;
};

export type Created = { _id: string };
type Nothing = Record<string, never>;

/** `'METHOD /path'` → the JSON body it takes and the one it answers with. */
export type ProvisionalCalls = {
  'POST /api/admin/setup': { body: { code: string; password: string }; answer: { totpUri: string; secret?: string } };
  'POST /api/admin/login': { body: { email: string; password: string; totp: string }; answer: { token: string } };
  'DELETE /api/admin/logout': { body: never; answer: Nothing };
  'GET /api/admin/me': { body: never; answer: StaffMe };
  'GET /api/admin/staff': { body: never; answer: Paged<StaffMember> };
  'POST /api/admin/staff': { body: { email: string; name: string; role: string }; answer: Created & { setupLink: string } };
  'DELETE /api/admin/staff/{id}': { body: never; answer: Nothing };
  'GET /api/admin/products': { body: never; answer: Paged<AdminProduct> };
  'POST /api/admin/products': { body: ProductFields; answer: Created };
  'GET /api/admin/products/{id}': { body: never; answer: AdminProduct };
  'PATCH /api/admin/products/{id}': { body: Partial<Omit<ProductFields, 'quantity'>>; answer: AdminProduct };
  'GET /api/admin/categories': { body: never; answer: Paged<AdminCategory> };
  'POST /api/admin/categories': { body: { name: string; slug: string }; answer: Created };
  'PATCH /api/admin/categories/{id}': { body: { name?: string; slug?: string }; answer: AdminCategory };
  'POST /api/admin/categories/{id}/subcategories': { body: { name: string; slug: string }; answer: Created };
  'GET /api/admin/brands': { body: never; answer: Paged<AdminBrand> };
  'POST /api/admin/brands': { body: { name: string; slug: string; image: string }; answer: Created };
  'PATCH /api/admin/brands/{id}': { body: { name?: string; slug?: string; image?: string }; answer: AdminBrand };
  'POST /api/admin/products/{id}/photos': { body: FormData; answer: { images: ProductImage[] } };
  'PUT /api/admin/products/{id}/photos/order': { body: { names: string[] }; answer: { images: ProductImage[] } };
  'DELETE /api/admin/products/{id}/photos/{photoId}': { body: never; answer: { images: ProductImage[] } };
  'GET /api/admin/products/{id}/stock': { body: never; answer: Paged<StockEntry> };
  'POST /api/admin/products/{id}/stock': {
    body: { delta: number; reason: string; note?: string };
    answer: { quantity: number };
  };
  'PUT /api/admin/products/{id}/stock/threshold': { body: { threshold: number }; answer: Nothing };
  'GET /api/admin/stock/low': { body: never; answer: Paged<LowStock> };
  'GET /api/admin/customers': { body: never; answer: Paged<AdminCustomer> };
  'GET /api/admin/customers/{id}': { body: never; answer: AdminCustomer };
  'GET /api/admin/customers/{id}/orders': { body: never; answer: Paged<Order> };
  'PATCH /api/admin/customers/{id}/offer': { body: { percentage: number; endsOn: string }; answer: AdminCustomer };
  'DELETE /api/admin/customers/{id}/offer': { body: never; answer: AdminCustomer };
  'GET /api/admin/audit': { body: never; answer: Paged<AuditRecord> };
};
