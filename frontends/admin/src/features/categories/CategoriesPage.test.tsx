import { failed } from '@marque/api-client/testing';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AdminCategory } from '../../lib/api/types';
import { adminServer, paged } from '../../test/server';
import { CATEGORIES } from '../../test/products';
import { CategoriesPage } from './CategoriesPage';

describe('categories and subcategories', () => {
  it('adds a category (its slug proposed from the name) and a subcategory under it', async () => {
    window.history.replaceState(null, '', '/admin/categories');
    const categories: AdminCategory[] = [...CATEGORIES];
    const server = adminServer({
      'GET /api/admin/categories': () => paged(categories),
      'POST /api/admin/categories': ({ body }) => {
        const category = { _id: 'c3', ...body, subcategories: [] };
        categories.push(category);
        return category;
      },
      'POST /api/admin/categories/{id}/subcategories': ({ params, body }) => {
        const category = categories.find((c) => c._id === params.id) as AdminCategory;
        category.subcategories.push({ _id: `${params.id}-${body.slug}`, ...body });
        return category;
      },
    });
    render(<CategoriesPage />);
    await screen.findByText('Brakes');
    await userEvent.type(screen.getByLabelText('Name'), 'Body Parts & Mirrors');
    expect((screen.getByLabelText('Slug (web address)') as HTMLInputElement).value).toBe('body-parts-mirrors');
    await userEvent.click(screen.getByRole('button', { name: 'Add category' }));
    const row = (await screen.findByText('Body Parts & Mirrors')).closest('tr') as HTMLElement;
    expect(server.calls.find((c) => c.path === '/api/admin/categories' && c.method === 'POST')?.body).toEqual({
      name: 'Body Parts & Mirrors',
      slug: 'body-parts-mirrors',
    });

    await userEvent.click(within(row).getByRole('button', { name: 'Add subcategory' }));
    await userEvent.type(within(row).getByLabelText('Name'), 'Wing mirrors');
    await userEvent.click(within(row).getByRole('button', { name: 'Add subcategory' }));
    await waitFor(() => expect(within(row).getByText('Wing mirrors')).toBeTruthy());
    expect(server.calls.find((c) => c.path === '/api/admin/categories/c3/subcategories')?.body).toEqual({
      name: 'Wing mirrors',
      slug: 'wing-mirrors',
    });
  });

  it('shows a taken slug beside the slug and keeps the name', async () => {
    adminServer({
      'GET /api/admin/categories': () => paged(CATEGORIES),
      'POST /api/admin/categories': () => failed(400, 'This slug is already used', 'catalog.slug_taken'),
    });
    render(<CategoriesPage />);
    await screen.findByText('Brakes');
    await userEvent.type(screen.getByLabelText('Name'), 'Brakes');
    await userEvent.click(screen.getByRole('button', { name: 'Add category' }));
    expect((await screen.findByText('This slug is already used')).id).toBe('category-slug-error');
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Brakes');
  });
});
