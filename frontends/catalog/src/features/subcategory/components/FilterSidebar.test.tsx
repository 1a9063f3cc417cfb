import type { FakeServer } from '@marque/api-client/testing';
import { setLanguage } from '@marque/i18n';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listingShop } from '../../../test/listing-shop';
import { SubcategoryPage } from './SubcategoryPage';

let server: FakeServer | undefined;
afterEach(() => server?.restore());

const open = (address: string) => window.history.replaceState(null, '', address);
const address = () => window.location.pathname + window.location.search;
const sidebar = () => screen.getByRole('complementary', { name: 'Refined by' });

async function openSubcategory(at: string) {
  server = listingShop();
  open(at);
  render(<SubcategoryPage />);
  // The sidebar is complete once the brands have arrived.
  await screen.findByRole('checkbox', { name: 'BMW' });
}

describe('the filter sidebar', () => {
  it("lists the categories as collapsible groups linking to their subcategories, without 'others'", async () => {
    await openSubcategory('/subcategory/brakes/brake-discs?page=1');
    const categories = within(sidebar()).getByRole('navigation', { name: 'Categories' });

    const brakes = within(categories).getByRole('button', { name: 'Brakes' });
    expect(brakes.getAttribute('aria-expanded')).toBe('true');
    const discs = within(categories).getByRole('link', { name: 'Brake Discs' });
    expect(discs.getAttribute('href')).toBe('/subcategory/brakes/brake-discs?page=1');
    expect(discs.getAttribute('aria-current')).toBe('page');
    expect(within(categories).getByRole('link', { name: 'Brake Pads' }).getAttribute('href')).toBe(
      '/subcategory/brakes/brake-pads?page=1',
    );
    expect(within(categories).queryByRole('link', { name: 'Others' })).toBeNull();

    const engine = within(categories).getByRole('button', { name: 'Engine' });
    expect(engine.getAttribute('aria-expanded')).toBe('false');
    expect(within(categories).queryByRole('link', { name: 'Turbochargers' })).toBeNull();
    await userEvent.click(engine);
    expect(engine.getAttribute('aria-expanded')).toBe('true');
    expect(within(categories).getByRole('link', { name: 'Turbochargers' }).getAttribute('href')).toBe(
      '/subcategory/engine/turbochargers?page=1',
    );
    expect(within(categories).queryByRole('link', { name: 'Others' })).toBeNull();
    await userEvent.click(brakes);
    expect(within(categories).queryByRole('link', { name: 'Brake Discs' })).toBeNull();
  });

  it('offers PRODUCT TYPE, Fuel TYPE and a checkbox per brand the shop lists', async () => {
    await openSubcategory('/subcategory/brakes/brake-discs?page=1');

    const type = within(sidebar()).getByRole('group', { name: 'PRODUCT TYPE' });
    expect(within(type).getAllByRole('checkbox').map((box) => box.closest('label')?.textContent)).toEqual(['Old', 'New']);
    const fuel = within(sidebar()).getByRole('group', { name: 'Fuel TYPE' });
    expect(within(fuel).getAllByRole('checkbox').map((box) => box.closest('label')?.textContent)).toEqual([
      'Petrol',
      'Diesel',
    ]);
    const oem = within(sidebar()).getByRole('group', { name: 'OEM BRANDS' });
    expect(within(oem).getAllByRole('checkbox').map((box) => box.closest('label')?.textContent)).toEqual([
      'Audi',
      'BMW',
      'Land Rover',
    ]);
    expect(server!.requests).toContain('/api/get/brand/oem');
  });

  it('joins two chosen brands with -- in the address and goes back to page 1', async () => {
    await openSubcategory('/subcategory/brakes/brake-discs?page=2');

    await userEvent.click(screen.getByRole('checkbox', { name: 'BMW' }));
    expect(address()).toBe('/subcategory/brakes/brake-discs?page=1&oem=bmw');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Audi' }));
    expect(address()).toBe('/subcategory/brakes/brake-discs?page=1&oem=bmw--audi');

    expect((screen.getByRole('checkbox', { name: 'BMW' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'Audi' }) as HTMLInputElement).checked).toBe(true);
    await waitFor(() =>
      expect(server!.requests.at(-1)).toBe('/api/get/product/brakes/brake-discs?page=1&oem=bmw--audi'),
    );
  });

  it('shows one removable chip per active value; removing one updates the address', async () => {
    await openSubcategory('/subcategory/brakes/brake-discs?page=2&oem=bmw&fuel_type=diesel--petrol');
    // On a phone the chips are in the drawer: its button tells how many filters are on.
    expect(screen.getByRole('button', { name: 'Filters (3)' })).toBeTruthy();

    const chips = within(sidebar()).getByRole('list', { name: 'Active filters' });
    expect(within(chips).getAllByRole('button').map((chip) => chip.getAttribute('aria-label'))).toEqual([
      'Remove BMW',
      'Remove Diesel',
      'Remove Petrol',
    ]);
    expect((screen.getByRole('checkbox', { name: 'Diesel' }) as HTMLInputElement).checked).toBe(true);

    await userEvent.click(screen.getByRole('button', { name: 'Remove Diesel' }));

    expect(address()).toBe('/subcategory/brakes/brake-discs?page=1&oem=bmw&fuel_type=petrol');
    expect(screen.queryByRole('button', { name: 'Remove Diesel' })).toBeNull();
    expect((screen.getByRole('checkbox', { name: 'Diesel' }) as HTMLInputElement).checked).toBe(false);
    expect(screen.getByRole('button', { name: 'Remove Petrol' })).toBeTruthy();
  });

  it('Reset clears every filter and goes to page 1', async () => {
    await openSubcategory('/subcategory/brakes/brake-discs?page=3&oem=bmw--audi&product_type=old');

    await userEvent.click(within(sidebar()).getByRole('button', { name: 'Reset' }));

    expect(address()).toBe('/subcategory/brakes/brake-discs?page=1');
    expect(screen.queryByRole('list', { name: 'Active filters' })).toBeNull();
    expect(screen.getAllByRole('checkbox').every((box) => !(box as HTMLInputElement).checked)).toBe(true);
  });

  it("reads the filters from the address, so the browser's Back restores the previous ones", async () => {
    await openSubcategory('/subcategory/brakes/brake-discs?page=1&fuel_type=diesel');

    await userEvent.click(screen.getByRole('checkbox', { name: 'BMW' }));
    expect(address()).toBe('/subcategory/brakes/brake-discs?page=1&oem=bmw&fuel_type=diesel');

    await act(async () => {
      window.history.back();
      await new Promise((resolve) => window.addEventListener('popstate', resolve, { once: true }));
    });

    expect(address()).toBe('/subcategory/brakes/brake-discs?page=1&fuel_type=diesel');
    await waitFor(() => expect((screen.getByRole('checkbox', { name: 'BMW' }) as HTMLInputElement).checked).toBe(false));
    expect((screen.getByRole('checkbox', { name: 'Diesel' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByRole('button', { name: 'Remove BMW' })).toBeNull();
  });

  it('opens as a drawer from the Filters button and closes with its button, Esc or the backdrop, moving focus', async () => {
    await openSubcategory('/subcategory/brakes/brake-discs?page=1');
    const opener = screen.getByRole('button', { name: 'Filters' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(opener.getAttribute('aria-expanded')).toBe('false');

    await userEvent.click(opener);
    const drawer = screen.getByRole('dialog', { name: 'Refined by' });
    expect(drawer.getAttribute('aria-modal')).toBe('true');
    expect(opener.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement).toBe(within(drawer).getByRole('button', { name: 'Close filters' }));

    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);

    await userEvent.click(opener);
    await userEvent.click(screen.getByRole('button', { name: 'Close filters' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);

    await userEvent.click(opener);
    await userEvent.click(screen.getByTestId('filter-backdrop'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('keeps Tab inside the open drawer', async () => {
    await openSubcategory('/subcategory/brakes/brake-discs?page=1');
    await userEvent.click(screen.getByRole('button', { name: 'Filters' }));
    const drawer = screen.getByRole('dialog', { name: 'Refined by' });

    // Focus starts on the close button, after Reset; going back past Reset wraps to the last brand.
    await userEvent.tab({ shift: true });
    expect(document.activeElement).toBe(within(drawer).getByRole('button', { name: 'Reset' }));
    await userEvent.tab({ shift: true });
    expect(document.activeElement).toBe(within(drawer).getByRole('checkbox', { name: 'Land Rover' }));
    await userEvent.tab();
    expect(document.activeElement).toBe(within(drawer).getByRole('button', { name: 'Reset' }));
  });

  it('shows the filters only when the category has a name', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server = listingShop();
    open('/subcategory/unknown/brake-discs?page=1');
    render(<SubcategoryPage />);

    expect(await screen.findByText('Product Not Found')).toBeTruthy();
    await screen.findByRole('button', { name: 'Brakes' });
    expect(screen.queryByRole('group', { name: 'PRODUCT TYPE' })).toBeNull();
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('speaks Hindi when the visitor chooses हिन्दी', async () => {
    await openSubcategory('/subcategory/brakes/brake-discs?page=1&fuel_type=diesel');
    try {
      await act(() => setLanguage('hi'));
      expect(screen.getByRole('complementary', { name: 'इनके अनुसार छाँटें' })).toBeTruthy();
      expect(screen.getByRole('group', { name: 'ईंधन का प्रकार' })).toBeTruthy();
      expect(screen.getByRole('button', { name: 'डीज़ल हटाएँ' })).toBeTruthy();
      expect(screen.getByRole('button', { name: 'रीसेट करें' })).toBeTruthy();
    } finally {
      await act(() => setLanguage('en'));
      localStorage.clear();
    }
  });
});
