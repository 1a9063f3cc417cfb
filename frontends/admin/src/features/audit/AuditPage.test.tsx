import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { adminServer, paged } from '../../test/server';
import { AuditPage } from './AuditPage';

describe('the audit trail', () => {
  it('shows who did what to which record with the values before and after, filtered by action on the server', async () => {
    window.history.replaceState(null, '', '/admin/audit');
    const server = adminServer({
      'GET /api/admin/audit': () =>
        paged([
          { _id: 'a1', at: 1_780_000_000, actor: 's1', actorLabel: 'Meera Owner', action: 'product.update', subject: 'product:p1', before: { price: 2499.5 }, after: '{"price":2299}' },
          { _id: 'a2', at: 1_780_000_100, actor: 'system:cli', actorLabel: 'system (cli)', action: 'staff.invite', subject: 'staff:s9', after: { role: 'catalog' } },
        ]),
    });
    render(<AuditPage />);
    expect((await screen.findByRole('link', { name: 'product:p1' })).getAttribute('href')).toBe('/admin/products/p1');
    expect(screen.getByRole('cell', { name: 'staff:s9' }).querySelector('a')).toBeNull();
    expect(screen.getByText('system (cli)')).toBeTruthy();
    expect(screen.getByText('Meera Owner')).toBeTruthy();
    expect(screen.getByText(/"price": 2499.5/)).toBeTruthy();
    expect(screen.getByText(/"price": 2299/)).toBeTruthy();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'What' }), 'offer.set');
    await waitFor(() => expect(server.requests).toContain('/api/admin/audit?page=1&size=20&action=offer.set'));
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-26' } });
    // Midnight in India is 18:30 UTC the day before.
    const from = Date.UTC(2026, 10, 25, 18, 30) / 1000;
    await waitFor(() => expect(server.requests).toContain(`/api/admin/audit?page=1&size=20&action=offer.set&from=${from}`));
    expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe('2026-11-26');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Record (product:…, customer:…)' }), 'product:p1');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(server.requests).toContain(`/api/admin/audit?page=1&size=20&subject=product%3Ap1&action=offer.set&from=${from}`),
    );
  });
});
