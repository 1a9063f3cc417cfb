// The garage panel: the picker walks make → model → generation → engine (each list one call), then the year.
import { failed, fakeServer, type FakeServer } from '@marque/api-client/testing';
import { closeGarage, getGarage, openGarage } from '@marque/session';
import { resetGarage, testCar } from '@marque/session/testing';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { GaragePanel } from './GaragePanel';

let server: FakeServer | undefined;
afterEach(() => {
  server?.restore();
  act(() => {
    closeGarage();
    resetGarage();
  });
});

function vehicleTable() {
  let failures = 0;
  return fakeServer({
    '/api/get/vehicles': ({ url }) => {
      const q = Object.fromEntries(url.searchParams);
      if (q.generation === 'bmw-x5-g05') {
        return {
          status: 'success',
          vehicles: [
            { id: 'bmw-x5-g05.b57', make: 'BMW', model: 'X5', generation: 'G05', engine: '3.0d', engineCode: 'B57', fuel: 'diesel', years: { from: 2019, to: 2022 } },
            { id: 'bmw-x5-g05.b58', make: 'BMW', model: 'X5', generation: 'G05', engine: '40i', engineCode: 'B58', fuel: 'petrol', years: { from: 2019 } },
          ],
        };
      }
      if (q.make === 'bmw' && q.model === 'x5') {
        return {
          status: 'success',
          generations: [
            { id: 'bmw-x5-f15', code: 'F15', years: { from: 2013, to: 2018 } },
            { id: 'bmw-x5-g05', code: 'G05', years: { from: 2019 } },
          ],
        };
      }
      if (q.make === 'bmw') {
        // The first answer for the models fails: the list offers to try again.
        if (failures++ === 0) return failed(503, 'The vehicle table cannot be read right now.');
        return { status: 'success', models: [{ id: 'x3', name: 'X3' }, { id: 'x5', name: 'X5' }] };
      }
      return { status: 'success', makes: [{ id: 'audi', name: 'Audi' }, { id: 'bmw', name: 'BMW' }] };
    },
  });
}

async function openPanel() {
  render(<GaragePanel />);
  act(() => openGarage());
  return screen.findByRole('dialog', { name: 'My garage' });
}

const choose = async (name: string) => userEvent.click(await screen.findByRole('button', { name }));

describe('the garage panel', () => {
  it('adds a car chosen make → model → generation → engine → year, uses it and closes', async () => {
    resetGarage();
    server = vehicleTable();
    await openPanel();

    expect(await screen.findByRole('heading', { name: 'Choose the make' })).toBeTruthy();
    await choose('BMW');
    // The models failed once: Try again asks again.
    await choose('Try again');
    expect(await screen.findByRole('heading', { name: 'Choose the model' })).toBeTruthy();
    await choose('X5');
    expect(await screen.findByRole('heading', { name: 'Choose the generation' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'F15 · 2013–2018' })).toBeTruthy();
    await choose('G05 · 2019–');
    expect(await screen.findByRole('heading', { name: 'Choose the engine' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '40i · Petrol · B58 · 2019–' })).toBeTruthy();
    await choose('3.0d · Diesel · B57 · 2019–2022');

    const year = screen.getByRole('combobox', { name: 'Model year (optional)' });
    expect(within(year).getAllByRole('option').map((o) => o.textContent)).toEqual(['Not sure', '2022', '2021', '2020', '2019']);
    await userEvent.selectOptions(year, '2020');
    await choose('Save car');

    expect(getGarage()).toEqual({ cars: [testCar({ year: 2020 })], current: testCar({ year: 2020 }), open: false });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(server.requests).toEqual([
      '/api/get/vehicles',
      '/api/get/vehicles?make=bmw',
      '/api/get/vehicles?make=bmw',
      '/api/get/vehicles?make=bmw&model=x5',
      '/api/get/vehicles?generation=bmw-x5-g05',
    ]);
  });

  it('changes an earlier choice from the trail of choices', async () => {
    resetGarage();
    server = vehicleTable();
    await openPanel();
    await choose('BMW');
    await choose('Try again');
    await choose('X5');
    await screen.findByRole('heading', { name: 'Choose the generation' });
    // The model, tapped in the trail, is chosen again under the same make.
    await choose('X5');
    expect(await screen.findByRole('heading', { name: 'Choose the model' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'X3' })).toBeTruthy();
    await choose('BMW');
    expect(await screen.findByRole('heading', { name: 'Choose the make' })).toBeTruthy();
  });

  it('lists the garage’s cars: one is used, none can be, one is removed, and Add a car opens the picker', async () => {
    const petrol = testCar({ id: 'bmw-x5-g05.b58', engine: '40i', year: 2021 });
    resetGarage([testCar(), petrol], testCar().id);
    server = vehicleTable();
    const dialog = await openPanel();

    expect(within(dialog).getByRole('button', { name: 'BMW X5 (G05) 3.0d' }).getAttribute('aria-pressed')).toBe('true');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove BMW X5 (G05) 3.0d' }));
    expect(getGarage().cars).toEqual([petrol]);
    expect(getGarage().current).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'No car: show every part' }).getAttribute('aria-pressed')).toBe('true');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Add a car' }));
    expect(await screen.findByRole('heading', { name: 'Choose the make' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));

    await userEvent.click(screen.getByRole('button', { name: 'BMW X5 (G05) 40i 2021' }));
    expect(getGarage()).toMatchObject({ current: petrol, open: false });
  });

  it('closes with Escape', async () => {
    resetGarage([testCar()]);
    server = vehicleTable();
    await openPanel();
    await userEvent.keyboard('{Escape}');
    expect(getGarage().open).toBe(false);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
