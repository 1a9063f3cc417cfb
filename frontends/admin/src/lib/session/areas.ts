// What a staff member may open, by the areas `GET /api/admin/me` lists (the server's role check decides; this
// only hides what would be refused).
import type { StaffMe } from '../api/types';

/** The areas of the back office the server names in `Me.areas`. */
export type Area =
  | 'dashboard'
  | 'products'
  | 'categories'
  | 'brands'
  | 'photos'
  | 'stock'
  | 'imports'
  | 'orders'
  | 'refunds'
  | 'returns'
  | 'grievances'
  | 'customersRead'
  | 'customers'
  | 'offers'
  | 'staff'
  | 'audit'
  | 'sales';

export function mayUse(me: StaffMe, area: Area): boolean {
  return me.areas.includes(area);
}
