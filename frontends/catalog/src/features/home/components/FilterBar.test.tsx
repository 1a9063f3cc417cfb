import { fakeServer, type FakeServer } from '@marque/api-client/testing';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { aBrand } from '../../../test/fixtures';
import { categoryListingHref } from './FilterBar';
import { HomePage } from './HomePage';

let server: FakeServer | undefined;
afterEach(() => server?.restore());

function openHome() {
  server = fakeServer({
    '/api/get/new-products': () => ({ status: 'success', data: [] }),
    '/api/get/suggestion': () => ({ status: 'success', result: [] }),
    '/api/get/brand/oem': () => ({
      status: 'success',
      data: [aBrand(), aBrand({ id: 'b-2', name: 'Land Rover', slug: 'land-rover' })],
    }),
    '/api/get/category': () => ({
      status: 'success',
      data: [
        { _id: 'c-1', name: 'Brakes', slug: 'brakes', subcategory: [] },
        { _id: 'c-2', name: 'Engine & Gearbox', slug: 'engine-gearbox', subcategory: [] },
      ],
    }),
  });
  render(<HomePage />);
  const bar = screen.getByRole('form', { name: 'Find parts for your car' });
  return {
    bar,
    category: within(bar).getByRole('combobox', { name: 'Category' }),
    brand: within(bar).getByRole('combobox', { name: 'Car brand' }),
    condition: within(bar).getByRole('combobox', { name: 'Condition' }),
    fuel: within(bar).getByRole('combobox', { name: 'Fuel type' }),
    search: within(bar).getByRole('button', { name: 'Search' }),
  };
}

const disabled = (element: HTMLElement) => (element as HTMLSelectElement | HTMLButtonElement).disabled;

describe('the home filter bar', () => {
  it('keeps Search and the brand, condition and fuel choices off until a category is chosen', async () => {
    const user = userEvent.setup();
    const { category, brand, condition, fuel, search } = openHome();
    await screen.findByRole('option', { name: 'Engine & Gearbox' });
    await screen.findByRole('option', { name: 'Land Rover' });

    expect([brand, condition, fuel, search].map(disabled)).toEqual([true, true, true, true]);
    expect(disabled(category)).toBe(false);
    expect(within(condition).getAllByRole('option').map((o) => o.textContent)).toEqual(['Any condition', 'USED', 'NEW']);
    expect(within(fuel).getAllByRole('option').map((o) => o.textContent)).toEqual(['Any fuel', 'PETROL', 'DIESEL']);

    await user.selectOptions(category, 'Brakes');
    expect([brand, condition, fuel, search].map(disabled)).toEqual([false, false, false, false]);

    await user.selectOptions(category, 'Select category');
    expect([brand, condition, fuel, search].map(disabled)).toEqual([true, true, true, true]);
  });

  it('opens the category listing with only the chosen filters', async () => {
    const user = userEvent.setup();
    const { category, brand, condition, fuel, search } = openHome();
    await screen.findByRole('option', { name: 'Land Rover' });
    await screen.findByRole('option', { name: 'Engine & Gearbox' });

    await user.selectOptions(category, 'engine-gearbox'); // by value: '&' is '&amp;' in innerHTML
    await user.click(search);
    expect(location.pathname + location.search).toBe('/category/engine-gearbox?page=1');

    await user.selectOptions(brand, 'Land Rover');
    await user.selectOptions(condition, 'USED');
    await user.click(search);
    expect(location.pathname + location.search).toBe('/category/engine-gearbox?page=1&oem=land-rover&product_type=old');

    await user.selectOptions(fuel, 'DIESEL');
    await user.selectOptions(condition, 'NEW');
    await user.click(search);
    expect(location.pathname + location.search).toBe(
      '/category/engine-gearbox?page=1&oem=land-rover&product_type=new&fuel_type=diesel',
    );
  });

  it('builds the listing address in the specification order', () => {
    expect(categoryListingHref({ category: 'brakes', oem: '', productType: '', fuelType: 'petrol' })).toBe(
      '/category/brakes?page=1&fuel_type=petrol',
    );
  });
});
