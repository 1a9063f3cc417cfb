import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { adminServer, CATALOG, FULFILMENT, OWNER } from '../../test/server';
import { DashboardPage } from './DashboardPage';

const figures = {
  toConfirm: 4,
  toPack: 3,
  toShip: 2,
  refundsPending: 5,
  refundsFailed: 1,
  grievancesOverdue: 2,
  lowStock: 7,
  returnsWaiting: 3,
  noticesFailed: 9,
  at: '2026-06-01T06:30:00Z',
};

describe('the dashboard', () => {
  it("shows the owner what waits, with links, and today's and this month's sales in rupees", async () => {
    adminServer({ 'GET /api/admin/dashboard': () => ({ ...figures, sales: { today: 150_050, thisMonth: 9_900_000 } }) });
    render(<DashboardPage me={OWNER} />);
    const waiting = within(await screen.findByRole('region', { name: 'Waiting now' }));
    expect(waiting.getByRole('link', { name: 'Orders to confirm' }).getAttribute('href')).toBe('/admin/orders?status=1');
    expect(waiting.getByText('4')).toBeTruthy();
    expect(waiting.getByRole('link', { name: 'Grievances past their clocks' })).toBeTruthy();
    expect(waiting.getByRole('link', { name: 'Returns waiting' }).getAttribute('href')).toBe('/admin/returns?state=requested');
    expect(waiting.getByText('Notices failed (email or SMS not sent)').nextElementSibling?.textContent).toBe('9');
    expect(waiting.getByText('Sales today').nextElementSibling?.textContent).toBe('₹1,500.50');
    expect(waiting.getByText('Sales this month').nextElementSibling?.textContent).toBe('₹99,000');
    expect(screen.getByRole('link', { name: 'Grievances' })).toBeTruthy();
  });

  it('shows fulfilment the work without sales figures', async () => {
    adminServer({ 'GET /api/admin/dashboard': () => figures }, FULFILMENT);
    render(<DashboardPage me={FULFILMENT} />);
    const waiting = within(await screen.findByRole('region', { name: 'Waiting now' }));
    expect(waiting.getByText('7')).toBeTruthy();
    expect(waiting.queryByText('Sales today')).toBeNull();
  });

  it('asks nothing for a catalog member, who sees only their cards', () => {
    const server = adminServer({}, CATALOG);
    render(<DashboardPage me={CATALOG} />);
    expect(screen.queryByRole('region', { name: 'Waiting now' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Products' })).toBeTruthy();
    expect(server.calls.filter((c) => c.path.startsWith('/api/admin/dashboard'))).toEqual([]);
  });
});
