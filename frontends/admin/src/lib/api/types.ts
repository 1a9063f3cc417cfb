// The back office's shapes, named: each is the API document's own schema (`@marque/api-client`), never restated.
import type { components } from '@marque/api-client';

type Schemas = components['schemas'];

/** The staff member signed in and the areas their role may use (`GET /api/admin/me`). */
export type StaffMe = Schemas['Me'];
/** A staff member as the staff list shows them. */
export type StaffView = Schemas['StaffView'];
export type AdminProduct = Schemas['AdminProduct'];
/** A product's fields as staff send them (creation and PATCH). */
export type ProductFields = Schemas['ProductFields'];
/** One of a product's pictures with the `_id` its removal names. */
export type AdminPhoto = Schemas['AdminPhoto'];
export type AdminCategory = Schemas['AdminCategory'];
export type AdminBrand = Schemas['AdminBrand'];
export type AdminStockEntry = Schemas['AdminStockEntry'];
export type AdminLowStockItem = Schemas['AdminLowStockItem'];
export type AdminCustomer = Schemas['AdminCustomer'];
export type AdminAuditEntry = Schemas['AdminAuditEntry'];
export type AdminOrder = Schemas['AdminOrder'];
export type AdminOrderList = Schemas['AdminOrderList'];
export type AdminOrderSummary = Schemas['AdminOrderSummary'];
/** A grievance ticket with its clocks and version (`GET /api/admin/grievances/{id}`). */
export type AdminGrievance = Schemas['AdminGrievance'];
export type AdminReturn = Schemas['AdminReturn'];
/** The back office's first page's figures (`GET /api/admin/dashboard`). */
export type AdminDashboard = Schemas['AdminDashboard'];
/** A catalog import job: its mode, state, counts and pace (`GET /api/admin/imports/{id}`). */
export type AdminImport = Schemas['AdminImport'];
