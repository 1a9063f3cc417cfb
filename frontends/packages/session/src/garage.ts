// "My garage": the shopper's cars (at most five) and the one chosen, kept in local storage under `garage` and shared
// by the shell's header button, the catalog's garage panel, its listings' car chip and the product page's verdict.
// It lives in the session package because it is the shopper's, like the wishlist: one singleton, no new shared
// module on every page. Account sync is not here yet; its seam is `replaceGarage` (put an account's cars in) and
// `subscribeGarage` (hear every change to save it), and nothing else writes the stored value.
import { useSyncExternalStore } from 'react';

export const GARAGE_KEY = 'garage';
export const GARAGE_MAX_CARS = 5;

/** A car as the shopper chose it from the vehicle table: names as the makers write them; the year is optional. */
export type GarageCar = {
  /** The vehicle's id (`bmw-x5-g05.b57`): what listings' `fits` takes. */
  id: string;
  make: string;
  model: string;
  /** The generation code: `G05`. */
  generation: string;
  /** The engine as shoppers know it: `3.0d`. */
  engine: string;
  year: number | null;
};

export type GarageState = {
  /** Newest first. */
  cars: readonly GarageCar[];
  /** The car listings and product pages are checked against; null shows every part. */
  current: GarageCar | null;
  /** Whether the garage panel is open. */
  open: boolean;
};

const text = (value: unknown): value is string => typeof value === 'string' && value !== '';

function carFrom(value: unknown): GarageCar | null {
  if (typeof value !== 'object' || value === null) return null;
  const { id, make, model, generation, engine, year } = value as Record<string, unknown>;
  if (!text(id) || !text(make) || !text(model) || !text(generation) || !text(engine)) return null;
  return { id, make, model, generation, engine, year: Number.isInteger(year) ? (year as number) : null };
}

/** The cars as stored, each one read on its own: what cannot be read is dropped, never the page. */
function read(): Pick<GarageState, 'cars' | 'current'> {
  try {
    const stored = JSON.parse(localStorage.getItem(GARAGE_KEY) ?? '{}') as { cars?: unknown; current?: unknown };
    const cars = tidy((Array.isArray(stored.cars) ? stored.cars : []).map(carFrom).filter((c) => c !== null));
    return { cars, current: cars.find((car) => car.id === stored.current) ?? null };
  } catch {
    return { cars: [], current: null };
  }
}

/** One car per vehicle (the first kept), at most five. */
function tidy(cars: GarageCar[]): GarageCar[] {
  return cars.filter((car, i) => cars.findIndex((other) => other.id === car.id) === i).slice(0, GARAGE_MAX_CARS);
}

let state: GarageState = { ...read(), open: false };
const listeners = new Set<() => void>();

export function getGarage(): GarageState {
  return state;
}

/** Hears every change (the account sync's seam: save the cars when they change). */
export function subscribeGarage(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function update(next: Partial<GarageState>, store = true) {
  state = { ...state, ...next };
  if (store) {
    try {
      if (state.cars.length === 0) localStorage.removeItem(GARAGE_KEY);
      else localStorage.setItem(GARAGE_KEY, JSON.stringify({ cars: state.cars, current: state.current?.id ?? null }));
    } catch {
      // A private window may refuse storage: the garage then lasts for this page only.
    }
  }
  for (const listener of listeners) listener();
}

/**
 * Puts `cars` in the garage and `currentId` in use (the account sync's seam: an account's cars after sign-in); the
 * same rules as the shopper's own choices (one per vehicle, at most five).
 */
export function replaceGarage(cars: readonly GarageCar[], currentId: string | null) {
  const kept = tidy(cars.map(carFrom).filter((c) => c !== null));
  update({ cars: kept, current: kept.find((car) => car.id === currentId) ?? null });
}

/** Adds a car (again: its year changes) as the newest and uses it; a sixth car drops the oldest. */
export function addCar(car: GarageCar) {
  replaceGarage([car, ...state.cars.filter((other) => other.id !== car.id)], car.id);
}

/** Uses a car of the garage; null: no car, every part. */
export function chooseCar(id: string | null) {
  update({ current: state.cars.find((car) => car.id === id) ?? null });
}

export function removeCar(id: string) {
  replaceGarage(
    state.cars.filter((car) => car.id !== id),
    state.current?.id === id ? null : (state.current?.id ?? null),
  );
}

export function openGarage() {
  update({ open: true }, false);
}

export function closeGarage() {
  update({ open: false }, false);
}

/** `X5 (G05) 3.0d`, as the product page's verdict names the car. */
export function carLabel(car: Pick<GarageCar, 'model' | 'generation' | 'engine'>): string {
  return `${car.model} (${car.generation}) ${car.engine}`;
}

// Another tab changed the garage (or a logout cleared storage): take the stored garage as it is now.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === GARAGE_KEY || event.key === null) update(read(), false);
  });
}

/** The garage in a component, re-rendering it when it changes. */
export function useGarage(): GarageState {
  return useSyncExternalStore(subscribeGarage, getGarage, getGarage);
}

/** For tests: the garage as a fresh page with this storage would have it. */
export function reloadGarage() {
  update({ ...read(), open: false }, false);
}
