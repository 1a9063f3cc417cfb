// Helpers for tests: a session in a known state without going through the network.
import type { User } from '@marque/api-client';
import { clearSessionCookie } from './cookie';
import { GARAGE_KEY, reloadGarage, type GarageCar } from './garage';
import { type PageAnswer, SESSION_DATA_ELEMENT_ID, tokenTag } from './page-answers';
import { resetStarted } from './session';
import { ANONYMOUS, setSession } from './store';
import { TOKEN_KEY } from './token';

export const TEST_USER: User = {
  _id: 'u1',
  name: 'Asha Verma',
  email: 'asha@example.in',
  googleEmail: '',
  mobile: '9876543210',
  emailVerified: true,
  mobileVerified: true,
  profile: '',
  address: [],
  offerExp: 0,
  percentage: 0,
  storeCredit: { balance: 0, expiresAt: null },
};

/** A signed-in customer (token stored too), with the given wishlist. */
export function signIn(user: Partial<User> = {}, wishlist: string[] = [], token = 'test-token') {
  localStorage.setItem(TOKEN_KEY, token);
  setSession({ status: 'authenticated', token, user: { ...TEST_USER, ...user }, wishlist: new Set(wishlist) });
}

/** Back to a logged-out visitor with nothing stored (no session cookie either). */
export function resetSession() {
  localStorage.removeItem(TOKEN_KEY);
  clearSessionCookie();
  resetStarted();
  setSession(ANONYMOUS);
}

/** Writes the page's signed-in answers as the server does for `token` (`<script id="marque-session-data">`); the
 * returned function removes them. */
export async function embedSessionAnswers(token: string, answers: PageAnswer[]): Promise<() => void> {
  const element = document.createElement('script');
  element.id = SESSION_DATA_ELEMENT_ID;
  element.type = 'application/json';
  element.textContent = JSON.stringify({ for: await tokenTag(token), answers });
  document.head.append(element);
  return () => element.remove();
}

/** A car with recognisable values (a BMW X5 G05 3.0d); `overrides` change any of them. */
export function testCar(overrides: Partial<GarageCar> = {}): GarageCar {
  return { id: 'bmw-x5-g05.b57', make: 'BMW', model: 'X5', generation: 'G05', engine: '3.0d', year: null, ...overrides };
}

/** A fresh page whose garage holds `cars` with `current` in use (nothing stored when empty); the panel closed. */
export function resetGarage(cars: GarageCar[] = [], current: string | null = cars[0]?.id ?? null) {
  if (cars.length === 0) localStorage.removeItem(GARAGE_KEY);
  else localStorage.setItem(GARAGE_KEY, JSON.stringify({ cars, current }));
  reloadGarage();
}
