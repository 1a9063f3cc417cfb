// The back office's areas in the navigation and on the dashboard, each with the area the server checks.
import type { Key } from '@marque/i18n';
import type { Area } from '../session/areas';

export type NavItem = { href: string; label: Key<'admin'>; area?: Area; about?: Key<'admin'> };

export const NAV: readonly NavItem[] = [
  { href: '/admin', label: 'nav.dashboard' },
  { href: '/admin/products', label: 'nav.products', area: 'products', about: 'dashboard.products' },
  { href: '/admin/categories', label: 'nav.categories', area: 'categories', about: 'dashboard.categories' },
  { href: '/admin/brands', label: 'nav.brands', area: 'brands', about: 'dashboard.brands' },
  { href: '/admin/stock', label: 'nav.stock', area: 'stock', about: 'dashboard.stock' },
  { href: '/admin/imports', label: 'nav.imports', area: 'imports', about: 'dashboard.imports' },
  { href: '/admin/orders', label: 'nav.orders', area: 'orders', about: 'dashboard.orders' },
  { href: '/admin/returns', label: 'nav.returns', area: 'returns', about: 'dashboard.returns' },
  { href: '/admin/grievances', label: 'nav.grievances', area: 'grievances', about: 'dashboard.grievances' },
  { href: '/admin/customers', label: 'nav.customers', area: 'customersRead', about: 'dashboard.customers' },
  { href: '/admin/audit', label: 'nav.audit', area: 'audit', about: 'dashboard.audit' },
  { href: '/admin/staff', label: 'nav.staff', area: 'staff', about: 'dashboard.staff' },
];
