// What a staff member may open, by the areas `GET /api/admin/me` lists (the server's role check decides; this
// only hides what would be refused).
import type { StaffMe } from '../api/provisional';

/** `customers_read`, `customersRead` and `CustomersRead` are one area. */
const normal = (area: string) => area.replace(/[_-]/g, '').toLowerCase();

export function mayUse(me: StaffMe, area: string): boolean {
  const wanted = normal(area);
  return me.areas.some((a) => normal(a) === wanted);
}
