// The garage kept with the account (`GET` and `PUT /api/account/garage`), so a signed-in shopper's cars follow them
// from one device to another: merged with the account's at sign-in, and each change of the cars sent while signed
// in. Its own entry (`@marque/session/garage-sync`), outside the singleton every page loads: the account remote
// merges at sign-in, the catalog's garage panel (a lazy chunk) sends the changes made in it.
import type { Answer } from '@marque/api-client';
// Through the package's name, not its files: this entry is bundled into the remote that imports it, and only the
// name reaches the page's one session and garage (a relative import would give the chunk copies of its own).
import { authorizedFetch, getGarage, getSession, jsonBody, readJson, replaceGarage, subscribeGarage, type GarageCar } from '@marque/session';

type AccountGarage = Answer<'GET /api/account/garage'>;
type AccountCar = AccountGarage['cars'][number];

const carOf = (c: AccountCar): GarageCar => ({
  id: c.vehicleId,
  make: c.make,
  model: c.model,
  generation: c.generation,
  engine: c.engine,
  year: c.year ?? null,
});

/** What the account keeps of the cars: each vehicle and its year, in order. */
const keyOf = (cars: readonly { id: string; year: number | null }[]) =>
  cars.map((car) => `${car.id}@${car.year ?? ''}`).join(',');

async function send(cars: readonly GarageCar[], token: string): Promise<void> {
  const body = { cars: cars.map((car) => ({ vehicleId: car.id, year: car.year })) };
  const response = await authorizedFetch('/api/account/garage', jsonBody('PUT /api/account/garage', body), token);
  if (!response.ok) console.error(`[marque] the garage could not be kept with the account (${response.status})`);
}

/**
 * At sign-in: the cars chosen on this device first (the newest), then the account's, each vehicle once, at most five;
 * the result is the garage here and in the account. A failure is only logged: the garage here stays as it was.
 */
export async function mergeGarageAtSignIn(token: string): Promise<void> {
  try {
    const response = await authorizedFetch('/api/account/garage', {}, token);
    const kept = response.ok ? await readJson<AccountGarage>(response) : null;
    if (!kept) return;
    const here = getGarage();
    replaceGarage([...here.cars, ...kept.cars.map(carOf)], here.current?.id ?? null);
    const merged = getGarage().cars;
    if (keyOf(merged) !== keyOf(kept.cars.map(carOf))) await send(merged, token);
  } catch (error) {
    console.error('[marque] the garage could not be merged with the account', error);
  }
}

let following = false;

/** From now on (once a page), each change of the garage's cars is sent to the account while the shopper is signed in. */
export function followGarage(): void {
  if (following) return;
  following = true;
  let last = keyOf(getGarage().cars);
  subscribeGarage(() => {
    const { cars } = getGarage();
    const now = keyOf(cars);
    if (now === last) return;
    last = now;
    const { status, token } = getSession();
    if (status === 'authenticated' && token) void send(cars, token).catch((error) => console.error('[marque] garage', error));
  });
}

