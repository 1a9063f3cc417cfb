import { failed } from '@marque/api-client/testing';
import { setLanguage } from '@marque/i18n';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { AdminApp } from './App';
import { adminServer, CATALOG, OWNER, paged } from './test/server';

const open = (path: string) => {
  window.history.replaceState(null, '', path);
  return render(<AdminApp />);
};

afterEach(async () => {
  await setLanguage('en');
});

describe('the admin frame', () => {
  it('sends a visitor without a staff token to the sign-in page', async () => {
    adminServer();
    open('/admin/products');
    expect(await screen.findByRole('heading', { name: 'Back office sign-in' })).toBeTruthy();
    expect(window.location.pathname).toBe('/admin/login');
  });

  it('shows an owner every area, and a catalog member only theirs', async () => {
    localStorage.setItem('staffToken', 't');
    adminServer({}, OWNER);
    const owner = open('/admin');
    const nav = await screen.findByRole('navigation', { name: 'Back office' });
    expect(within(nav).getAllByRole('link').map((a) => a.textContent)).toEqual([
      'Dashboard',
      'Products',
      'Categories',
      'Brands',
      'Stock',
      'Import and export',
      'Orders',
      'Returns',
      'Grievances',
      'Customers',
      'Audit trail',
      'Staff',
    ]);
    expect(screen.getByText('Signed in as Meera Owner · Owner')).toBeTruthy();
    owner.unmount();

    adminServer({}, CATALOG);
    const { resetStaffSession } = await import('./lib/session/staff-session');
    resetStaffSession();
    localStorage.setItem('staffToken', 't');
    open('/admin');
    const catalogNav = await screen.findByRole('navigation', { name: 'Back office' });
    expect(within(catalogNav).getAllByRole('link').map((a) => a.textContent)).toEqual([
      'Dashboard',
      'Products',
      'Categories',
      'Brands',
      'Stock',
      'Import and export',
    ]);
    const cards = screen.getAllByRole('listitem').filter((li) => li.className === 'admin-card');
    expect(cards.map((c) => c.querySelector('a')?.textContent)).toEqual(['Products', 'Categories', 'Brands', 'Stock', 'Import and export']);
  });

  it("refuses a catalog member the customers' offers and asks the server nothing for them", async () => {
    localStorage.setItem('staffToken', 't');
    const server = adminServer({ 'GET /api/admin/customers': () => paged([]) }, CATALOG);
    open('/admin/customers/c1');
    expect(await screen.findByRole('heading', { name: 'Not for your role' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Set offer' })).toBeNull();
    expect(server.requests.filter((r) => r.startsWith('/api/admin/customers'))).toEqual([]);
  });

  it('refuses a catalog member the orders and asks the server nothing for them', async () => {
    localStorage.setItem('staffToken', 't');
    const server = adminServer({ 'GET /api/admin/orders': () => ({ ...paged([]), counts: { placed: 0, confirmed: 0, packed: 0, shipped: 0, delivered: 0, cancelled: 0 } }) }, CATALOG);
    open('/admin/orders');
    expect(await screen.findByRole('heading', { name: 'Not for your role' })).toBeTruthy();
    expect(server.requests.filter((r) => r.startsWith('/api/admin/orders'))).toEqual([]);
  });

  it('sends the page to sign-in when a call answers 401 (the session expired or was revoked)', async () => {
    localStorage.setItem('staffToken', 'expired');
    adminServer({ 'GET /api/admin/products': () => failed(401, 'Please sign in to the back office.', 'staff.login_required') });
    open('/admin/products');
    expect(await screen.findByRole('heading', { name: 'Back office sign-in' })).toBeTruthy();
    expect(window.location.pathname).toBe('/admin/login');
    expect(localStorage.getItem('staffToken')).toBeNull();
  });

  it('signs out: the server forgets the session, the page goes to sign-in', async () => {
    localStorage.setItem('staffToken', 't');
    const server = adminServer({ 'DELETE /api/admin/logout': () => ({ status: 'success' }) });
    open('/admin');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(window.location.pathname).toBe('/admin/login'));
    expect(server.calls.some((c) => c.method === 'DELETE' && c.path === '/api/admin/logout')).toBe(true);
    expect(localStorage.getItem('staffToken')).toBeNull();
  });

  it('speaks Hindi when the visitor chose it', async () => {
    localStorage.setItem('staffToken', 't');
    adminServer();
    await setLanguage('hi');
    open('/admin');
    const nav = await screen.findByRole('navigation', { name: 'बैक ऑफ़िस' });
    expect(within(nav).getByRole('link', { name: 'उत्पाद' })).toBeTruthy();
  });
});
