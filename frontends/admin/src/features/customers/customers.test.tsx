import { failed } from '@marque/api-client/testing';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Order } from '@marque/api-client';
import type { AdminCustomer } from '../../lib/api/types';
import { adminServer, FULFILMENT, OWNER, paged } from '../../test/server';
import { CustomerPage } from './CustomerPage';
import { CustomersPage } from './CustomersPage';
import { indiaToday } from './offer';

/** The fields of an order this page shows. */
const ORDER = { _id: 'o1', orderNumber: 'MQ-77', createdAt: '2026-11-20T10:00:00Z', order_status_string: 'placed', total: 4999 } as Order;

const ASHA: AdminCustomer = {
  _id: 'u1',
  name: 'Asha Verma',
  email: 'asha@example.in',
  emailVerified: true,
  mobile: '9876543210',
  mobileVerified: true,
  googleEmail: '',
  createdAt: 1_780_000_000,
  percentage: 0,
  offerExp: 0,
};
const PAST = "The offer's end date cannot be before today (India time)";

describe('customers', () => {
  it('finds a customer by what was typed and shows their offer', async () => {
    window.history.replaceState(null, '', '/admin/customers');
    const server = adminServer({
      'GET /api/admin/customers': ({ url }) => paged(url.searchParams.get('q') === '98765' ? [{ ...ASHA, percentage: 10, offerExp: 3 }] : []),
    });
    render(<CustomersPage />);
    await screen.findByText('Nothing found.');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search' }), '98765');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect((await screen.findByRole('link', { name: 'Asha Verma' })).getAttribute('href')).toBe('/admin/customers/u1');
    expect(screen.getByText('10% off, 3 more days')).toBeTruthy();
    expect(server.requests).toContain('/api/admin/customers?page=1&size=20&q=98765');
  });

  it("lets an owner set an offer and end it, and lists the customer's orders", async () => {
    const server = adminServer({
      'GET /api/admin/customers/{id}': () => ASHA,
      'GET /api/admin/customers/{id}/orders': () => paged([ORDER]),
      'PATCH /api/admin/customers/{id}/offer': ({ body }) => ({ ...ASHA, percentage: body.percentage, offerExp: 5, endsOn: body.endsOn }),
      'DELETE /api/admin/customers/{id}/offer': () => ({ ...ASHA }),
    });
    render(<CustomerPage me={OWNER} id="u1" />);
    expect(await screen.findByRole('heading', { name: 'Asha Verma' })).toBeTruthy();
    expect(await screen.findByText('MQ-77')).toBeTruthy();
    expect(screen.getByText('placed')).toBeTruthy();
    expect(screen.getByText('No offer running.')).toBeTruthy();
    expect(screen.getByText(`Included, India time; today is ${indiaToday()}.`)).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Discount (%)'), '15');
    await userEvent.type(screen.getByLabelText('Last day'), '2030-01-31');
    await userEvent.click(screen.getByRole('button', { name: 'Set offer' }));
    expect(await screen.findByText('15% off, 5 more days')).toBeTruthy();
    expect(server.calls.find((c) => c.method === 'PATCH')).toMatchObject({
      path: '/api/admin/customers/u1/offer',
      body: { percentage: 15, endsOn: '2030-01-31' },
    });
    await userEvent.click(screen.getByRole('button', { name: 'End offer' }));
    expect(await screen.findByText('No offer running.')).toBeTruthy();
    expect(server.calls.some((c) => c.method === 'DELETE' && c.path === '/api/admin/customers/u1/offer')).toBe(true);
  });

  it('refuses a percentage out of range before asking, and shows the server’s refusal beside its field', async () => {
    adminServer({
      'GET /api/admin/customers/{id}': () => ASHA,
      'GET /api/admin/customers/{id}/orders': () => paged([]),
      'PATCH /api/admin/customers/{id}/offer': () => failed(400, PAST, 'offer.ends_on_past'),
    });
    render(<CustomerPage me={OWNER} id="u1" />);
    await screen.findByRole('heading', { name: 'Asha Verma' });
    await userEvent.type(screen.getByLabelText('Discount (%)'), '95');
    await userEvent.type(screen.getByLabelText('Last day'), '2020-01-01');
    expect((screen.getByRole('button', { name: 'Set offer' }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.clear(screen.getByLabelText('Discount (%)'));
    await userEvent.type(screen.getByLabelText('Discount (%)'), '20');
    await userEvent.click(screen.getByRole('button', { name: 'Set offer' }));
    await waitFor(() => expect(screen.getByText(PAST).id).toBe('offer-endsOn-error'));
    expect((screen.getByLabelText('Discount (%)') as HTMLInputElement).value).toBe('20');
  });

  it('shows a fulfilment member the customer without the offer form', async () => {
    adminServer({ 'GET /api/admin/customers/{id}': () => ({ ...ASHA, percentage: 10, offerExp: 2 }), 'GET /api/admin/customers/{id}/orders': () => paged([]) }, FULFILMENT);
    render(<CustomerPage me={FULFILMENT} id="u1" />);
    expect(await screen.findByText('10% off, 2 more days')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Set offer' })).toBeNull();
  });
});
