import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { adminServer, paged } from '../../test/server';
import { OrdersPage } from './OrdersPage';

const shipped = {
  _id: 'o1',
  orderNumber: 'MQ-000001',
  invoiceNumber: 'MQ/26-27/000001',
  createdAt: '2026-06-01T06:30:00.000Z',
  userName: 'Asha Rao',
  mobileNo: '9876543210',
  total: 3868.75,
  status: 4,
  statusText: 'shipped',
  shipment: {
    courier: 'bluedart',
    courierName: 'Blue Dart',
    awb: '77937279125',
    trackingLink: 'https://www.bluedart.com/web/guest/trackdartresultthirdparty?trackFor=0&trackNo=77937279125',
  },
};

describe('the orders', () => {
  it('lists the orders with their status, shipment and the counts per status, filtered and searched on the server', async () => {
    window.history.replaceState(null, '', '/admin/orders');
    const server = adminServer({
      'GET /api/admin/orders': () => ({
        ...paged([shipped]),
        counts: { placed: 3, confirmed: 1, packed: 0, shipped: 1, delivered: 0, cancelled: 0 },
      }),
    });
    render(<OrdersPage />);
    const row = (await screen.findByText('MQ-000001')).closest('tr')!;
    expect(within(row).getByText('Shipped')).toBeTruthy();
    expect(within(row).getByText('Blue Dart 77937279125')).toBeTruthy();
    const counts = within(screen.getByRole('list', { name: 'Orders at each status' }));
    expect(counts.getByText('Placed: 3')).toBeTruthy();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Status' }), '2');
    await waitFor(() => expect(server.requests).toContain('/api/admin/orders?page=1&size=20&status=2'));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Order or invoice number, email or mobile' }), 'MQ-000001');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(server.requests).toContain('/api/admin/orders?page=1&size=20&search=MQ-000001&status=2'));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Refunds' }), 'Failed');
    await waitFor(() => expect(server.requests).toContain('/api/admin/orders?page=1&size=20&search=MQ-000001&status=2&refunds=failed'));
  });
});
