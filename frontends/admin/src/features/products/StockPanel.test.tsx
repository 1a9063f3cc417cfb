import { failed } from '@marque/api-client/testing';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { StockEntry } from '../../lib/api/provisional';
import { adminServer, paged } from '../../test/server';
import { StockPanel } from './StockPanel';

const OPENING: StockEntry = { delta: 4, reason: 'opening', before: 0, after: 4, actor: 's1', actorLabel: 'Meera Owner', at: 1_780_000_000 };

describe('the stock of a product', () => {
  it('lists the history with who, why and before → after, and records stock received', async () => {
    let entries = [OPENING];
    const server = adminServer({
      'GET /api/admin/products/{id}/stock': () => paged(entries),
      'POST /api/admin/products/{id}/stock': ({ body }) => {
        entries = [{ ...body, note: body.note ?? null, before: 4, after: 4 + body.delta, actor: 's1', actorLabel: 'Meera Owner', at: 1_780_000_100 }, ...entries];
        return { quantity: 4 + body.delta };
      },
    });
    render(<StockPanel id="p1" />);
    expect(await screen.findByText('Opening stock')).toBeTruthy();
    expect(screen.getByText('0 → 4')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Change'), '12');
    await userEvent.type(screen.getByLabelText('Note'), 'Invoice 77');
    await userEvent.click(screen.getByRole('button', { name: 'Record' }));
    expect(await screen.findByText('4 → 16')).toBeTruthy();
    expect(screen.getByText('+12')).toBeTruthy();
    expect(server.calls.find((c) => c.method === 'POST')?.body).toEqual({ delta: 12, reason: 'received', note: 'Invoice 77' });
    expect((screen.getByLabelText('Change') as HTMLInputElement).value).toBe('');
  });

  it('refuses below zero beside the change and keeps it typed', async () => {
    adminServer({
      'GET /api/admin/products/{id}/stock': () => paged([OPENING]),
      'POST /api/admin/products/{id}/stock': () => failed(400, 'Stock cannot go below zero.', 'stock.below_zero'),
    });
    render(<StockPanel id="p1" />);
    await screen.findByText('Opening stock');
    await userEvent.selectOptions(screen.getByLabelText('Reason'), 'damaged');
    await userEvent.type(screen.getByLabelText('Change'), '-9');
    await userEvent.click(screen.getByRole('button', { name: 'Record' }));
    await waitFor(() => expect(screen.getByText('Stock cannot go below zero.').id).toBe('stock-delta-error'));
    expect((screen.getByLabelText('Change') as HTMLInputElement).value).toBe('-9');
    expect((screen.getByLabelText('Reason') as HTMLSelectElement).value).toBe('damaged');
  });
});
