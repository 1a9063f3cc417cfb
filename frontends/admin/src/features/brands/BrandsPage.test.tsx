import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AdminBrand } from '../../lib/api/types';
import { adminServer, paged } from '../../test/server';
import { BRANDS } from '../../test/products';
import { BrandsPage } from './BrandsPage';

describe('brands', () => {
  it('adds a brand with its logo and changes a logo', async () => {
    const brands: AdminBrand[] = [...BRANDS];
    const server = adminServer({
      'GET /api/admin/brands': () => paged(brands),
      'POST /api/admin/brands': ({ body }) => {
        const brand = { _id: 'b3', ...body };
        brands.push(brand);
        return brand;
      },
      'PATCH /api/admin/brands/{id}': ({ params, body }) => {
        const brand = brands.find((b) => b._id === params.id) as AdminBrand;
        Object.assign(brand, body);
        return brand;
      },
    });
    render(<BrandsPage />);
    await screen.findByText('Maruti');
    await userEvent.type(screen.getByLabelText('Name'), 'Tata Motors');
    await userEvent.type(screen.getByLabelText('Logo'), 'https://cdn.example.in/tata.png');
    await userEvent.click(screen.getByRole('button', { name: 'Add brand' }));
    await screen.findByText('Tata Motors');
    expect(server.calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Tata Motors',
      slug: 'tata-motors',
      logo: 'https://cdn.example.in/tata.png',
    });

    const row = screen.getByText('Hyundai').closest('tr') as HTMLElement;
    await userEvent.click(within(row).getByRole('button', { name: 'Edit' }));
    const logo = within(row).getByLabelText('Logo');
    await userEvent.clear(logo);
    await userEvent.type(logo, '/new-car-logo/hyundai-2.png');
    await userEvent.click(within(row).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(server.calls.find((c) => c.method === 'PATCH')).toMatchObject({
      path: '/api/admin/brands/b2',
      body: { name: 'Hyundai', slug: 'hyundai', logo: '/new-car-logo/hyundai-2.png' },
    });
  });
});
