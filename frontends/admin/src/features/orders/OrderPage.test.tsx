import { failed } from '@marque/api-client/testing';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { adminServer } from '../../test/server';
import { OrderPage } from './OrderPage';

const address = { houseNo: 'B-12', street: 'Ring Road', landmark: '', city: 'New Delhi', state: 'Delhi', pincode: '110001', mobileNo: '9876543210', gstin: '' };

function stored(status: number, version: number, shipment?: { courier: string; courierName: string; awb: string; trackingLink: string }) {
  return {
    order: {
      _id: 'o1',
      orderNumber: 'MQ-000001',
      invoiceNumber: 'MQ/26-27/000001',
      createdAt: '2026-06-01T06:30:00.000Z',
      products: [],
      discount: 0,
      discountAmount: 0,
      deliveryCharge: 0,
      total: 100,
      courier: shipment?.courierName ?? '',
      awb: shipment?.awb ?? '',
      order_status: status,
      order_status_string: 'packed',
      user_name: 'Asha Rao',
      address,
      creditNotes: [],
    },
    version,
    shipment,
    paymentId: 'pay_1',
    timeline: [{ at: 1_780_000_000, actor: 's1', actorLabel: 'ravi@marque.test', action: 'order.status', status }],
    refunds: [],
    refundable: { amount: 0, lines: [], deliveryCharge: false },
  };
}

describe('one order', () => {
  it('ships a packed order with a courier and AWB on the version it read', async () => {
    const link = 'https://www.bluedart.com/web/guest/trackdartresultthirdparty?trackFor=0&trackNo=77937279125';
    const server = adminServer({
      'GET /api/admin/orders/{id}': () => stored(3, 2),
      'PATCH /api/admin/orders/{id}': () => stored(4, 3, { courier: 'bluedart', courierName: 'Blue Dart', awb: '77937279125', trackingLink: link }),
    });
    render(<OrderPage id="o1" />);
    await userEvent.selectOptions(await screen.findByLabelText('Courier'), 'bluedart');
    await userEvent.type(screen.getByLabelText('AWB'), '77937279125');
    await userEvent.click(screen.getByRole('button', { name: 'Ship' }));
    expect((await screen.findByRole('link', { name: 'Blue Dart 77937279125' })).getAttribute('href')).toBe(link);
    const patch = server.calls.find((c) => c.method === 'PATCH');
    expect(patch?.path).toBe('/api/admin/orders/o1');
    expect(patch?.headers.get('if-match')).toBe('2');
    expect(patch?.body).toEqual({ status: 4, courier: 'bluedart', awb: '77937279125' });
    expect(screen.getByRole('button', { name: 'Mark delivered' })).toBeTruthy();
  });

  it('says so when someone else changed the order meanwhile', async () => {
    adminServer({
      'GET /api/admin/orders/{id}': () => stored(1, 0),
      'PATCH /api/admin/orders/{id}': () => failed(409, 'Someone else changed this order meanwhile. Reload it and try again.', 'order.changed'),
    });
    render(<OrderPage id="o1" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Someone else changed this order'));
  });
});

describe("an order's customer notices", () => {
  const notice = (id: string, kind: string, channel: 'email' | 'sms', state: 'sent' | 'waiting' | 'failed', attempts = 0, lastError: string | null = null) => ({
    _id: id,
    kind,
    channel,
    recipient: channel === 'email' ? 'asha@example.in' : '9876543210',
    state,
    attempts,
    queuedAt: 1_780_000_000,
    dueAt: 1_780_000_000,
    lastError,
  });

  it('lists each email and SMS with where it stands, a failed one with its attempts and reason', async () => {
    const server = adminServer({
      'GET /api/admin/orders/{id}': () => stored(4, 3),
      'GET /api/admin/orders/{id}/notices': () => ({
        results: [
          notice('n1', 'order-shipped', 'email', 'sent'),
          notice('n2', 'order-shipped', 'sms', 'failed', 8, 'DLT template not approved'),
        ],
      }),
    });
    render(<OrderPage id="o1" />);
    const panel = await screen.findByRole('region', { name: 'Customer notices' });
    const items = panel.querySelectorAll('li');
    expect(items).toHaveLength(2);
    expect(items[0]?.textContent).toContain('Order shipped · Email · asha@example.in · Sent');
    expect(items[1]?.textContent).toContain('Order shipped · SMS · 9876543210 · Failed: tell the customer yourself');
    expect(items[1]?.textContent).toContain('8 failed attempts · DLT template not approved');
    expect(server.calls.some((c) => c.path === '/api/admin/orders/o1/notices')).toBe(true);
  });

  it('shows no panel for an order without notices', async () => {
    adminServer({
      'GET /api/admin/orders/{id}': () => stored(1, 0),
      'GET /api/admin/orders/{id}/notices': () => ({ results: [] }),
    });
    render(<OrderPage id="o1" />);
    expect(await screen.findByText('MQ-000001')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Customer notices' })).toBeNull());
  });
});
