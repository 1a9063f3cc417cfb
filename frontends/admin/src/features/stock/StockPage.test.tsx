import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { adminServer, paged } from '../../test/server';
import { StockPage } from './StockPage';

describe('low stock', () => {
  it('lists the parts at or under their threshold and changes a threshold', async () => {
    const server = adminServer({
      'GET /api/admin/stock/low': () => paged([{ _id: 'p1', name: 'Brake disc front', quantity: 1, threshold: 2 }]),
      'PUT /api/admin/products/{id}/stock/threshold': ({ body }) => body,
    });
    render(<StockPage />);
    expect((await screen.findByRole('link', { name: 'Brake disc front' })).getAttribute('href')).toBe('/admin/products/p1');
    const threshold = screen.getByLabelText('Low-stock threshold');
    await userEvent.clear(threshold);
    await userEvent.type(threshold, '5');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.calls.find((c) => c.method === 'PUT')?.body).toEqual({ threshold: 5 }));
    expect(server.calls.find((c) => c.method === 'PUT')?.path).toBe('/api/admin/products/p1/stock/threshold');
  });
});
