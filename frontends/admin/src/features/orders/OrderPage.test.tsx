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
