import { afterEach, describe, expect, it } from 'vitest';
import {
  addCar,
  chooseCar,
  closeGarage,
  GARAGE_KEY,
  getGarage,
  openGarage,
  removeCar,
  replaceGarage,
  subscribeGarage,
} from './garage';
import { resetGarage, testCar } from './testing';

const stored = () => JSON.parse(localStorage.getItem(GARAGE_KEY) ?? 'null') as unknown;
const car = (n: number) => testCar({ id: `bmw-x5-g05.e${n}`, engine: `e${n}` });

afterEach(() => resetGarage());

describe('the garage', () => {
  it('adds a car as the newest, uses it, and stores it', () => {
    resetGarage();
    addCar(testCar({ year: 2020 }));
    addCar(car(1));
    expect(getGarage().cars.map((c) => c.id)).toEqual(['bmw-x5-g05.e1', 'bmw-x5-g05.b57']);
    expect(getGarage().current?.id).toBe('bmw-x5-g05.e1');
    expect(stored()).toEqual({ cars: [car(1), testCar({ year: 2020 })], current: 'bmw-x5-g05.e1' });
  });

  it('keeps one car per vehicle: adding it again moves it first with its new year', () => {
    resetGarage([testCar(), car(1)], car(1).id);
    addCar(testCar({ year: 2021 }));
    expect(getGarage().cars).toEqual([testCar({ year: 2021 }), car(1)]);
    expect(getGarage().current).toEqual(testCar({ year: 2021 }));
  });

  it('keeps at most five cars, dropping the oldest', () => {
    resetGarage();
    for (let n = 1; n <= 6; n++) addCar(car(n));
    expect(getGarage().cars.map((c) => c.engine)).toEqual(['e6', 'e5', 'e4', 'e3', 'e2']);
    expect((stored() as { cars: unknown[] }).cars).toHaveLength(5);
  });

  it('chooses a car or none, and removing the chosen car leaves none chosen', () => {
    resetGarage([car(1), car(2)], null);
    expect(getGarage().current).toBeNull();
    chooseCar(car(2).id);
    expect(getGarage().current?.id).toBe(car(2).id);
    chooseCar('bmw-x5-g05.unknown');
    expect(getGarage().current).toBeNull();
    chooseCar(car(2).id);
    removeCar(car(2).id);
    expect(getGarage()).toMatchObject({ cars: [car(1)], current: null });
    removeCar(car(1).id);
    expect(localStorage.getItem(GARAGE_KEY)).toBeNull();
  });

  it.each([
    ['not JSON', '{cars: ['],
    ['not an object', '42'],
    ['cars not a list', '{"cars": "x5", "current": "x5"}'],
  ])('starts empty when the stored value is %s', (_, value) => {
    localStorage.setItem(GARAGE_KEY, value);
    resetGarageFromStorage();
    expect(getGarage()).toEqual({ cars: [], current: null, open: false });
  });

  it('drops only the stored cars it cannot read, repeated vehicles and those past five', () => {
    const cars = [testCar(), { id: 'x' }, null, { ...car(1), year: 'new' }, testCar({ year: 1999 }), car(2), car(3), car(4), car(5)];
    localStorage.setItem(GARAGE_KEY, JSON.stringify({ cars, current: 'missing' }));
    resetGarageFromStorage();
    expect(getGarage().cars).toEqual([testCar(), car(1), car(2), car(3), car(4)]);
    expect(getGarage().current).toBeNull();
  });

  it('follows another tab and a logout clearing storage', () => {
    resetGarage([testCar()]);
    localStorage.setItem(GARAGE_KEY, JSON.stringify({ cars: [car(1)], current: car(1).id }));
    window.dispatchEvent(new StorageEvent('storage', { key: GARAGE_KEY }));
    expect(getGarage().current?.id).toBe(car(1).id);
    localStorage.clear();
    window.dispatchEvent(new StorageEvent('storage', { key: null }));
    expect(getGarage().cars).toEqual([]);
  });

  it('tells listeners of every change and opens and closes the panel without storing it', () => {
    resetGarage([testCar()]);
    const before = localStorage.getItem(GARAGE_KEY);
    let heard = 0;
    const stop = subscribeGarage(() => heard++);
    openGarage();
    expect(getGarage().open).toBe(true);
    closeGarage();
    replaceGarage([car(1), car(1)], car(1).id);
    stop();
    expect(heard).toBe(3);
    expect(getGarage()).toMatchObject({ cars: [car(1)], current: car(1), open: false });
    expect(before).not.toBe(localStorage.getItem(GARAGE_KEY));
  });
});

/** The garage as a fresh page would read what is stored now. */
function resetGarageFromStorage() {
  const value = localStorage.getItem(GARAGE_KEY);
  resetGarage();
  if (value !== null) localStorage.setItem(GARAGE_KEY, value);
  window.dispatchEvent(new StorageEvent('storage', { key: GARAGE_KEY }));
}
