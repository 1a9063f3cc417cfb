import { failed } from '@marque/api-client/testing';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { adminServer, FULFILMENT, paged } from '../../test/server';
import { ReturnPage } from './ReturnPage';
import { ReturnsPage } from './ReturnsPage';

function made(state: 'requested' | 'approved' | 'received' | 'resolved', version: number) {
  return {
    _id: 'r1',
    orderId: 'o1',
    orderNumber: 'MQ-000042',
    productId: 'p1',
    productName: 'Brake disc',
    quantity: 1,
    reason: 'The disc is warped out of the box',
    photos: 1,
    state,
    outcome: state === 'resolved' ? 'storeCredit' : undefined,
    amount: state === 'resolved' ? 900 : undefined,
    deliveredAt: '2026-06-01T06:30:00Z',
    windowClosesAt: '2026-06-08T06:30:00Z',
    createdAt: '2026-06-02T06:30:00Z',
    updatedAt: '2026-06-02T06:30:00Z',
    customerId: 'u1',
    restock: false,
    version,
  };
}

describe('the returns', () => {
  it('lists the returns and filters by state on the server', async () => {
    window.history.replaceState(null, '', '/admin/returns');
    const server = adminServer({ 'GET /api/admin/returns': () => paged([made('requested', 0)]) });
    render(<ReturnsPage />);
    const row = (await screen.findByText('MQ-000042')).closest('tr')!;
    expect(within(row).getByText('Brake disc')).toBeTruthy();
    expect(within(row).getByText('Requested')).toBeTruthy();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'State' }), 'received');
    await waitFor(() => expect(server.requests).toContain('/api/admin/returns?page=1&size=20&state=received'));
  });

  it('resolves a received return as store credit on the version it read, under an Idempotency-Key', async () => {
    const server = adminServer({
      'GET /api/admin/returns/{id}': () => made('received', 2),
      'POST /api/admin/returns/{id}/resolve': () => made('resolved', 3),
    });
    render(<ReturnPage id="r1" me={FULFILMENT} />);
    await userEvent.selectOptions(await screen.findByLabelText('Outcome'), 'storeCredit');
    await userEvent.click(screen.getByRole('button', { name: 'Resolve' }));
    expect(await screen.findByText('Store credit (valid 6 months) · ₹900')).toBeTruthy();
    const post = server.calls.find((c) => c.method === 'POST');
    expect(post?.path).toBe('/api/admin/returns/r1/resolve');
    expect(post?.headers.get('if-match')).toBe('2');
    expect(post?.headers.get('idempotency-key')).toMatch(/^return-/);
    expect(post?.body).toEqual({ outcome: 'storeCredit', restock: true });
  });

  it('says so when someone else moved the return meanwhile', async () => {
    adminServer({
      'GET /api/admin/returns/{id}': () => made('requested', 0),
      'POST /api/admin/returns/{id}/approve': () =>
        failed(409, 'Someone else changed this return meanwhile. Reload it and try again.', 'return.changed'),
    });
    render(<ReturnPage id="r1" me={FULFILMENT} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Someone else changed this return'));
  });
});
