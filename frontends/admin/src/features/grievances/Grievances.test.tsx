import { failed } from '@marque/api-client/testing';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { adminServer, paged } from '../../test/server';
import { GrievancePage } from './GrievancePage';
import { GrievancesPage } from './GrievancesPage';

function ticket(state: 'open' | 'acknowledged' | 'resolved', version: number, overdue = false) {
  return {
    _id: 'g1',
    number: 'GR/26-27/000001',
    name: 'Asha Verma',
    email: 'asha@example.in',
    mobile: '9810012345',
    orderNumber: 'MQ-000042',
    message: 'The brake pads I received are for the wrong model.',
    state,
    createdAt: '2026-06-01T06:30:00Z',
    acknowledgeBy: '2026-06-03T06:30:00Z',
    resolveBy: '2026-07-01T06:30:00Z',
    acknowledgeOverdue: overdue,
    resolveOverdue: false,
    overdue,
    acknowledgedAt: state === 'open' ? undefined : '2026-06-01T08:00:00Z',
    resolvedAt: state === 'resolved' ? '2026-06-02T08:00:00Z' : undefined,
    resolution: state === 'resolved' ? 'A replacement is on its way.' : undefined,
    handledBy: state === 'open' ? undefined : 'fulfilment@example.in',
    version,
  };
}

describe('the grievances', () => {
  it('lists the tickets with their clocks, flags the overdue ones, and filters by state on the server', async () => {
    window.history.replaceState(null, '', '/admin/grievances');
    const server = adminServer({ 'GET /api/admin/grievances': () => paged([ticket('open', 0, true)]) });
    render(<GrievancesPage />);
    const row = (await screen.findByText('GR/26-27/000001')).closest('tr')!;
    expect(within(row).getByText('Open')).toBeTruthy();
    expect(within(row).getByText('Overdue')).toBeTruthy();
    expect(within(row).getByText('Asha Verma · 9810012345')).toBeTruthy();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'State' }), 'acknowledged');
    await waitFor(() => expect(server.requests).toContain('/api/admin/grievances?page=1&size=20&state=acknowledged'));
  });

  it('resolves a ticket with a reply on the version it read', async () => {
    const server = adminServer({
      'GET /api/admin/grievances/{id}': () => ticket('acknowledged', 1),
      'PATCH /api/admin/grievances/{id}': () => ticket('resolved', 2),
    });
    render(<GrievancePage id="g1" />);
    expect(screen.queryByRole('button', { name: 'Acknowledge' })).toBeNull();
    await userEvent.type(await screen.findByLabelText('Note to the complainant'), 'A replacement is on its way.');
    await userEvent.click(screen.getByRole('button', { name: 'Resolve with this reply' }));
    expect(await screen.findByText('A replacement is on its way.')).toBeTruthy();
    const patch = server.calls.find((c) => c.method === 'PATCH');
    expect(patch?.path).toBe('/api/admin/grievances/g1');
    expect(patch?.headers.get('if-match')).toBe('1');
    expect(patch?.body).toEqual({ action: 'resolve', note: 'A replacement is on its way.' });
    expect(screen.queryByRole('button', { name: 'Resolve with this reply' })).toBeNull();
  });

  it('acknowledges an open ticket, and says so when someone else moved it meanwhile', async () => {
    const server = adminServer({
      'GET /api/admin/grievances/{id}': () => ticket('open', 0, true),
      'PATCH /api/admin/grievances/{id}': () =>
        failed(409, 'Someone else changed this grievance meanwhile. Reload it and try again.', 'grievance.changed'),
    });
    render(<GrievancePage id="g1" />);
    expect(await screen.findByText('Overdue')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Acknowledge' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Someone else changed this grievance'));
    expect(server.calls.find((c) => c.method === 'PATCH')?.body).toEqual({ action: 'acknowledge' });
  });
});
