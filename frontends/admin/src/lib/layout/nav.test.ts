// Every back-office page must be in the storefront's route table (contract/routes.json): the server answers a page
// load of a path only when the table has it, and the shell draws the admin remote only on the paths it lists.
import { parse } from 'regexparam';
import { matchRoute } from 'wouter';
import { describe, expect, it } from 'vitest';
import table from '../../../../../contract/routes.json';
import { NAV } from './nav';

/** The pages of one record under a list (an order, a product, …), as the admin's router names them. */
const RECORD_PAGES = ['/admin/products/new', '/admin/products/p1', '/admin/orders/o1', '/admin/grievances/g1', '/admin/returns/r1', '/admin/customers/c1', '/admin/imports/i1'];

const adminPageAt = (path: string) =>
  table.routes.find((route) => matchRoute(parse, route.path, path)[0] && route.page === 'admin/Admin') !== undefined;

describe('the route table', () => {
  it.each([...NAV.map((item) => item.href), ...RECORD_PAGES, '/admin/login', '/admin/setup'])('has the admin page %s', (path) => {
    expect(adminPageAt(path)).toBe(true);
  });
});
