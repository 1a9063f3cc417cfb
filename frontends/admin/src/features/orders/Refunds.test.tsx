import { failed } from '@marque/api-client/testing';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { adminServer, signInStaff } from '../../test/server';
import { OrderPage } from './OrderPage';

const address = { houseNo: 'B-12', street: 'Ring Road', landmark: '', city: 'New Delhi', state: 'Delhi', pincode: '110001', mobileNo: '9876543210', gstin: '' };

type Refund = {
  _id: string;
  kind: string;
  amount: number;
  deliveryCharge: number;
  lines: { productId: string; name: string; quantity: number; amount: number; restock: boolean; reason: string }[];
  state: string;
  reason: string;
  by: string;
  createdAt: string;
  updatedAt: string;
  attempt: number;
  creditNote?: string;
};

function refund(state: string, attempt = 1): Refund {
  return {
    _id: 'o1-1',
    kind: 'partial',
    amount: 900,
    deliveryCharge: 0,
    lines: [{ productId: 'p1', name: 'Brake pad set', quantity: 1, amount: 900, restock: true, reason: 'cracked' }],
    state,
    reason: 'damaged',
    by: 'sita@marque.test',
    createdAt: '2026-06-02T06:30:00.000Z',
    updatedAt: '2026-06-02T06:30:00.000Z',
    attempt,
  };
}

function stored(status: number, version: number, refunds: Refund[] = [], left = 2) {
  return {
    order: {
      _id: 'o1',
      orderNumber: 'MQ-000001',
      invoiceNumber: 'MQ/26-27/000001',
      createdAt: '2026-06-01T06:30:00.000Z',
      products: [{ product_id: 'p1', name: 'Brake pad set', quantity: 2, price: 1000, gst: 18 }],
      discount: 10,
      discountAmount: 200,
      deliveryCharge: 100,
      total: 1900,
      courier: '',
      awb: '',
      order_status: status,
      order_status_string: status === 6 ? 'admin-cancelled' : 'placed',
      user_name: 'Asha Rao',
      address,
      creditNotes: [],
    },
    version,
    paymentId: 'pay_1',
    timeline: [],
    refunds,
    refundable: {
      amount: 1900 - refunds.reduce((sum, r) => sum + r.amount, 0),
      lines: [{ productId: 'p1', name: 'Brake pad set', ordered: 2, left }],
      deliveryCharge: refunds.length === 0,
    },
  };
}

describe('refunds and cancelling', () => {
  it('refunds the units chosen under one Idempotency-Key and lists the refund', async () => {
    const server = adminServer({
      'GET /api/admin/orders/{id}': () => stored(5, 4),
      'POST /api/admin/orders/{id}/refunds': () => ({ order: stored(5, 4, [refund('pending')], 1), refund: refund('pending') }),
    });
    render(<OrderPage id="o1" />);
    const quantity = await screen.findByLabelText('Units to refund (≤ 2)');
    await userEvent.clear(quantity);
    await userEvent.type(quantity, '1');
    await userEvent.type(screen.getByLabelText('Reason for this line'), 'cracked');
    await userEvent.type(screen.getByLabelText('Reason'), 'damaged');
    await userEvent.click(screen.getByRole('button', { name: 'Refund' }));
    expect(await screen.findByText('Pending', { exact: false })).toBeTruthy();
    const post = server.calls.find((c) => c.method === 'POST');
    expect(post?.path).toBe('/api/admin/orders/o1/refunds');
    expect(post?.headers.get('idempotency-key')).toMatch(/^refund-[0-9a-f-]{36}$/);
    expect(post?.body).toEqual({
      lines: [{ productId: 'p1', quantity: 1, restock: true, reason: 'cracked' }],
      deliveryCharge: false,
      reason: 'damaged',
    });
  });

  it('shows a refusal of the refund above the form, keeping what was typed', async () => {
    adminServer({
      'GET /api/admin/orders/{id}': () => stored(5, 4),
      'POST /api/admin/orders/{id}/refunds': () => failed(409, 'That is more units than are left to refund on this line.', 'refund.quantity_above_left'),
    });
    render(<OrderPage id="o1" />);
    const quantity = await screen.findByLabelText('Units to refund (≤ 2)');
    await userEvent.clear(quantity);
    await userEvent.type(quantity, '3');
    await userEvent.type(screen.getByLabelText('Reason'), 'damaged');
    await userEvent.click(screen.getByRole('button', { name: 'Refund' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('more units than are left'));
    expect((screen.getByLabelText('Units to refund (≤ 2)') as HTMLInputElement).value).toBe('3');
  });

  it("lists each refund's credit note and downloads its PDF with the staff token", async () => {
    for (const name of ['createObjectURL', 'revokeObjectURL'] as const) {
      if (!(name in URL)) Object.defineProperty(URL, name, { value: () => '', configurable: true, writable: true });
    }
    vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:note-1');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const saved: Array<{ href: string; download: string }> = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ href: this.href, download: this.download });
    });
    const noted = { ...refund('processed'), creditNote: 'CN/26-27/000003' };
    const none = { ...refund('processed'), _id: 'o1-2', amount: 0, lines: [] };
    const server = adminServer({
      'GET /api/admin/orders/{id}': () => stored(6, 5, [noted, none], 0),
      'GET /api/admin/orders/{id}/refunds/{refund}/credit-note': () =>
        new Response(new TextEncoder().encode('%PDF-1.7 note'), { headers: { 'content-type': 'application/pdf' } }),
    });
    await signInStaff('staff-token');
    render(<OrderPage id="o1" />);
    const button = await screen.findByRole('button', { name: 'Credit note CN/26-27/000003' });
    expect(screen.getAllByRole('button', { name: /Credit note/ })).toHaveLength(1);
    await userEvent.click(button);
    await waitFor(() => expect(saved).toEqual([{ href: 'blob:note-1', download: 'credit-note.pdf' }]));
    const call = server.calls.find((c) => c.path === '/api/admin/orders/o1/refunds/o1-1/credit-note');
    expect(call?.headers.get('authorization')).toBe('Bearer staff-token');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('retries a failed refund', async () => {
    const server = adminServer({
      'GET /api/admin/orders/{id}': () => stored(5, 4, [refund('failed')], 1),
      'POST /api/admin/orders/{id}/refunds/{refund}/retry': () => ({ order: stored(5, 4, [refund('processed', 2)], 1), refund: refund('processed', 2) }),
    });
    render(<OrderPage id="o1" />);
    expect(await screen.findByText('Failed', { exact: false })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Refunded', { exact: false })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(server.calls.find((c) => c.method === 'POST')?.path).toBe('/api/admin/orders/o1/refunds/o1-1/retry');
  });

  it('cancels an order before it ships on the version it read, and not after', async () => {
    const server = adminServer({
      'GET /api/admin/orders/{id}': () => stored(2, 1),
      'POST /api/admin/orders/{id}/cancel': () => ({ order: stored(6, 2, [{ ...refund('processed'), kind: 'cancel', amount: 1900 }], 0), refund: refund('processed') }),
    });
    render(<OrderPage id="o1" />);
    await userEvent.type(await screen.findByLabelText('Reason', { selector: '#cancel-reason' }), 'customer called');
    await userEvent.click(screen.getByLabelText('Return to stock', { selector: '#cancel-restock' }));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel order' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Cancel order' })).toBeNull());
    const post = server.calls.find((c) => c.method === 'POST');
    expect(post?.path).toBe('/api/admin/orders/o1/cancel');
    expect(post?.headers.get('if-match')).toBe('1');
    expect(post?.body).toEqual({ reason: 'customer called', restock: false });
  });
});
