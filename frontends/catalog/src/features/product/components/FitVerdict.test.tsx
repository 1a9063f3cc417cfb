import { fakeServer, type FakeServer } from '@marque/api-client/testing';
import { getGarage, closeGarage } from '@marque/session';
import { resetGarage, testCar } from '@marque/session/testing';
import { embedTestShop } from '@marque/ui/testing';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { Fit } from '../../../lib/garage/fit';
import { aProduct } from '../../../test/fixtures';
import { ProductPage } from './ProductPage';

let server: FakeServer | undefined;
afterEach(() => {
  server?.restore();
  resetGarage();
  closeGarage();
});

const x5Diesel: Fit = {
  vehicleId: 'bmw-x5-g05.b57',
  generationId: 'bmw-x5-g05',
  make: 'BMW',
  model: 'X5',
  generation: 'G05',
  engine: '3.0d',
  engineCode: 'B57',
  years: { from: 2019, to: 2023 },
  note: 'front axle',
};
const x3: Fit = { generationId: 'bmw-x3-g01', make: 'BMW', model: 'X3', generation: 'G01', vehicleId: null, engine: null, engineCode: null, years: null, note: null };

async function openProduct(fits: Fit[] | undefined) {
  const product = aProduct({ _id: 'p-9', name: 'Brake disc', partNo: '34 10 6 797 602', fits: fits as never });
  server = fakeServer({ '/api/get/productById/{id}': () => ({ status: 'success', data: product }) });
  window.history.replaceState(null, '', '/product?productId=p-9');
  render(<ProductPage />);
  await screen.findByRole('heading', { level: 1, name: 'Brake disc' });
}

describe('the product page and the garage', () => {
  it('says the part fits the chosen car, with the row’s note, and lists every vehicle it fits', async () => {
    resetGarage([testCar({ year: 2020 })]);
    await openProduct([x3, x5Diesel]);

    expect(screen.getByText('Fits your X5 (G05) 3.0d – front axle')).toBeTruthy();
    const list = screen.getByRole('heading', { name: 'Fits these cars' }).closest('section')!;
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'BMW X3 (G01) all engines',
      'BMW X5 (G05) 3.0d 2019–2023 – front axle',
    ]);
  });

  it('says the part does not fit a car of another engine or outside the years', async () => {
    resetGarage([testCar({ year: 2024 })]);
    await openProduct([x3, x5Diesel]);
    expect(screen.getByText('Does not fit your car: X5 (G05) 3.0d')).toBeTruthy();
    expect(screen.queryByText(/^Fits your/)).toBeNull();
  });

  it('says the fitment is not listed and links the shop’s chat, asking about this part', async () => {
    embedTestShop({ chatNumber: '919810012345' });
    resetGarage([testCar()]);
    await openProduct(undefined);

    const ask = screen.getByRole('link', { name: 'Fitment not listed – ask us' });
    const href = new URL(ask.getAttribute('href')!);
    expect(href.origin + href.pathname).toBe('https://wa.me/919810012345');
    expect(href.searchParams.get('text')).toBe('Does part 34 10 6 797 602 (Brake disc) fit my car?');
    expect(screen.queryByRole('heading', { name: 'Fits these cars' })).toBeNull();
  });

  it('sends a shop without a chat number’s question to the contact page', async () => {
    embedTestShop({ chatNumber: null });
    await openProduct([]);
    expect(screen.getByRole('link', { name: 'Fitment not listed – ask us' }).getAttribute('href')).toBe('/contactus');
  });

  it('offers the garage when no car is chosen', async () => {
    resetGarage([testCar()], null);
    await openProduct([x5Diesel]);
    await userEvent.click(screen.getByRole('button', { name: 'Choose your car to check the fit' }));
    expect(getGarage().open).toBe(true);
  });

  it('follows a car chosen while the page is open', async () => {
    resetGarage();
    await openProduct([x5Diesel]);
    expect(screen.queryByText(/fit your/)).toBeNull();
    resetGarage([testCar({ id: 'bmw-x5-g05.b58', engine: '40i' })]);
    expect(await screen.findByText('Does not fit your car: X5 (G05) 40i')).toBeTruthy();
  });
});
