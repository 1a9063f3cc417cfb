import { failed } from '@marque/api-client/testing';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { StaffView } from '../../lib/api/types';
import { adminServer, OWNER, paged } from '../../test/server';
import { StaffPage } from './StaffPage';

describe('staff', () => {
  it('invites someone with a role and shows the set-up link to hand over', async () => {
    const staff: StaffView[] = [{ _id: OWNER._id, email: OWNER.email, name: OWNER.name, role: 'owner', status: 'active', createdAt: 1_780_000_000 }];
    const server = adminServer({
      'GET /api/admin/staff': () => paged(staff),
      'POST /api/admin/staff': ({ body }) => {
        staff.push({ _id: 's2', ...body, status: 'invited', createdAt: 1_780_000_100 });
        return { _id: 's2', setupLink: '/admin/setup?code=abc123' };
      },
    });
    render(<StaffPage me={OWNER} />);
    await screen.findByText(OWNER.email);
    await userEvent.type(screen.getByLabelText('Name'), 'Ravi');
    await userEvent.type(screen.getByLabelText('Email'), 'ravi@example.in');
    await userEvent.selectOptions(screen.getByLabelText('Role'), 'fulfilment');
    await userEvent.click(screen.getByRole('button', { name: 'Invite' }));
    expect(await screen.findByText(`${window.location.origin}/admin/setup?code=abc123`)).toBeTruthy();
    expect(server.calls.find((c) => c.method === 'POST')?.body).toEqual({ email: 'ravi@example.in', name: 'Ravi', role: 'fulfilment' });
    expect(await screen.findByText('ravi@example.in')).toBeTruthy();
    const ravi = within(screen.getByText('ravi@example.in').closest('tr') as HTMLElement);
    expect(ravi.getByText('Fulfilment')).toBeTruthy();
    expect(ravi.getByText('Invited, not set up yet')).toBeTruthy();
    expect(within(screen.getByText(OWNER.email).closest('tr') as HTMLElement).getByText('Active')).toBeTruthy();
  });

  it('removes someone else after asking, never offers to remove oneself, and shows a refusal', async () => {
    const member = (_id: string, email: string, name: string, role: string): StaffView => ({ _id, email, name, role, status: 'active', createdAt: 1_780_000_000 });
    const staff: StaffView[] = [
      member(OWNER._id, OWNER.email, OWNER.name, 'owner'),
      member('s2', 'ravi@example.in', 'Ravi', 'catalog'),
      member('s3', 'gone@example.in', 'Gone', 'owner'),
    ];
    const server = adminServer({
      'GET /api/admin/staff': () => paged(staff),
      'DELETE /api/admin/staff/{id}': ({ params }) => {
        // Another owner removed s3 a moment ago; this page has not reloaded since.
        if (params.id === 's3') return failed(404, 'No such staff member.', 'staff.not_found');
        staff.splice(staff.findIndex((s) => s._id === params.id), 1);
        return { status: 'success' };
      },
    });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    render(<StaffPage me={OWNER} />);
    const me = (await screen.findByText(OWNER.email)).closest('tr') as HTMLElement;
    expect(within(me).queryByRole('button', { name: 'Remove' })).toBeNull();
    await userEvent.click(within(screen.getByText('ravi@example.in').closest('tr') as HTMLElement).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByText('ravi@example.in')).toBeNull());
    expect(window.confirm).toHaveBeenCalledWith('Remove Ravi from the back office?');
    expect(server.calls.find((c) => c.method === 'DELETE')?.path).toBe('/api/admin/staff/s2');
    await userEvent.click(within(screen.getByText('gone@example.in').closest('tr') as HTMLElement).getByRole('button', { name: 'Remove' }));
    expect((await screen.findByRole('alert')).textContent).toBe('No such staff member.');
  });
});
