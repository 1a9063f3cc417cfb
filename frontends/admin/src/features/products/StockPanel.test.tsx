import { failed } from '@marque/api-client/testing';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AdminStockEntry } from '../../lib/api/types';
import { adminServer, paged } from '../../test/server';
import { StockPanel } from './StockPanel';

const OPENING: AdminStockEntry = {
  _id: 'e1',
  product: 'p1',
  delta: 4,
  reason: 'opening',
  before: 0,
  after: 4,
  actor: 'system:migration',
  actorLabel: 'system (migration)',
  at: 1_780_000_000,
};

const BELOW_ZERO = 'Stock cannot go below zero: there are fewer units than that.';

describe('the stock of a product', () => {
  it('lists the history with who, why and before → after, and records stock received', async () => {
    let entries = [OPENING];
    const server = adminServer({
      'GET /api/admin/products/{id}/stock': () => paged(entries),
      'POST /api/admin/products/{id}/stock': ({ body }) => {
        const entry = { _id: 'e2', product: 'p1', ...body, before: 4, after: 4 + body.delta, actor: 's1', actorLabel: 'owner@example.in', at: 1_780_000_100 };
        entries = [entry, ...entries];
        return entry;
      },
    });
    render(<StockPanel id="p1" />);
    expect(await screen.findByText('Opening stock')).toBeTruthy();
    expect(screen.getByText('0 → 4')).toBeTruthy();
    expect(screen.getByText('system (migration)')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Change'), '12');
    await userEvent.type(screen.getByLabelText('Note'), 'Invoice 77');
    await userEvent.click(screen.getByRole('button', { name: 'Record' }));
    expect(await screen.findByText('4 → 16')).toBeTruthy();
    expect(screen.getByText('+12')).toBeTruthy();
    expect(screen.getByText('owner@example.in')).toBeTruthy();
    expect(screen.getByText('Invoice 77')).toBeTruthy();
    expect(server.calls.find((c) => c.method === 'POST')?.body).toEqual({ delta: 12, reason: 'received', note: 'Invoice 77' });
    expect((screen.getByLabelText('Change') as HTMLInputElement).value).toBe('');
  });

  it('refuses below zero beside the change and keeps it typed', async () => {
    adminServer({
      'GET /api/admin/products/{id}/stock': () => paged([OPENING]),
      'POST /api/admin/products/{id}/stock': () => failed(409, BELOW_ZERO, 'stock.below_zero'),
    });
    render(<StockPanel id="p1" />);
    await screen.findByText('Opening stock');
    await userEvent.selectOptions(screen.getByLabelText('Reason'), 'damaged');
    await userEvent.type(screen.getByLabelText('Change'), '-9');
    await userEvent.click(screen.getByRole('button', { name: 'Record' }));
    await waitFor(() => expect(screen.getByText(BELOW_ZERO).id).toBe('stock-delta-error'));
    expect((screen.getByLabelText('Change') as HTMLInputElement).value).toBe('-9');
    expect((screen.getByLabelText('Reason') as HTMLSelectElement).value).toBe('damaged');
  });
});
