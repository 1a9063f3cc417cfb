import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { adminServer, paged } from '../../test/server';
import { PRODUCT } from '../../test/products';
import { ProductsPage } from './ProductsPage';

describe('the products list', () => {
  it('asks the server for one page at a time, searches and filters there, and links each product', async () => {
    window.history.replaceState(null, '', '/admin/products');
    const server = adminServer({
      'GET /api/admin/products': ({ url }) =>
        url.searchParams.get('q') === 'nothing' ? paged([]) : paged([PRODUCT, { ...PRODUCT, _id: 'p2', name: 'Pad set', published: false }], 3, 45),
    });
    render(<ProductsPage />);
    expect(await screen.findByRole('link', { name: 'Brake disc front' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Brake disc front' }).getAttribute('href')).toBe('/admin/products/p1');
    expect(screen.getByText('45 in all')).toBeTruthy();
    expect(server.requests).toContain('/api/admin/products?page=1&size=20');
    expect(screen.getByRole('link', { name: 'Page 2' }).getAttribute('href')).toBe('/admin/products?page=2');

    await userEvent.click(screen.getByRole('link', { name: 'Page 2' }));
    await waitFor(() => expect(server.requests).toContain('/api/admin/products?page=2&size=20'));

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Published in the shop' }), 'false');
    await waitFor(() => expect(server.requests).toContain('/api/admin/products?page=1&size=20&published=false'));

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search' }), 'nothing');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Nothing found.')).toBeTruthy();
    expect(server.requests).toContain('/api/admin/products?page=1&size=20&q=nothing&published=false');
    expect(window.location.search).toBe('?published=false&q=nothing');
  });
});
