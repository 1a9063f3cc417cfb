import { afterEach, describe, expect, it, vi } from 'vitest';
import { addCar, chooseCar, getGarage } from './garage';
import { followGarage, mergeGarageAtSignIn } from './garage-sync';
import { resetGarage, resetSession, signIn, testCar } from './testing';

const x3 = testCar({ id: 'bmw-x3-g01.b47', model: 'X3', generation: 'G01', engine: '20d', year: null });
const accountCar = { vehicleId: 'audi-a4-b9.cvka', make: 'Audi', model: 'A4', generation: 'B9', engine: '2.0 TDI', year: 2018 };

/** A fetch that answers the account's garage to GET and records every PUT's body. */
function account(cars: unknown[], putStatus = 200) {
  const puts: unknown[] = [];
  const fetch = vi.fn(async (path: string, init: RequestInit = {}) => {
    expect(path).toBe('/api/account/garage');
    expect(new Headers(init.headers).get('authorization')).toBe('Bearer tok');
    if (init.method === 'PUT') {
      puts.push(JSON.parse(String(init.body)));
      return new Response('{}', { status: putStatus });
    }
    return new Response(JSON.stringify({ cars }), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetch);
  return { fetch, puts };
}

afterEach(() => {
  resetSession();
  resetGarage();
  vi.unstubAllGlobals();
});

describe('the garage kept with the account', () => {
  it("merges at sign-in: this device's cars first, then the account's, each once, and keeps the result in both", async () => {
    resetGarage([testCar({ year: 2020 }), x3], x3.id);
    const { puts } = account([accountCar, { ...accountCar, vehicleId: 'bmw-x3-g01.b47', model: 'X3' }]);
    await mergeGarageAtSignIn('tok');
    expect(getGarage().cars.map((c) => c.id)).toEqual(['bmw-x5-g05.b57', 'bmw-x3-g01.b47', 'audi-a4-b9.cvka']);
    expect(getGarage().current?.id).toBe(x3.id);
    expect(getGarage().cars[2]).toEqual({ id: 'audi-a4-b9.cvka', make: 'Audi', model: 'A4', generation: 'B9', engine: '2.0 TDI', year: 2018 });
    expect(puts).toEqual([
      {
        cars: [
          { vehicleId: 'bmw-x5-g05.b57', year: 2020 },
          { vehicleId: 'bmw-x3-g01.b47', year: null },
          { vehicleId: 'audi-a4-b9.cvka', year: 2018 },
        ],
      },
    ]);
  });

  it('sends nothing when the account holds the same cars, and a failed read leaves the garage as it was', async () => {
    resetGarage();
    const { puts } = account([accountCar]);
    await mergeGarageAtSignIn('tok');
    expect(getGarage().cars.map((c) => c.id)).toEqual(['audi-a4-b9.cvka']);
    expect(puts).toEqual([]);

    resetGarage([x3], null);
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{}', { status: 503 })));
    await mergeGarageAtSignIn('tok');
    expect(getGarage().cars).toEqual([x3]);
  });

  it('sends each change of the cars while signed in, and none while logged out or when only the car in use changes', async () => {
    resetGarage();
    const { puts } = account([]);
    followGarage();
    addCar(x3);
    expect(puts, 'logged out: kept on this device only').toEqual([]);
    signIn({}, [], 'tok');
    addCar(testCar());
    await vi.waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({ cars: [{ vehicleId: 'bmw-x5-g05.b57', year: null }, { vehicleId: x3.id, year: null }] });
    chooseCar(x3.id);
    await Promise.resolve();
    expect(puts, 'the car in use is this device\'s choice').toHaveLength(1);
  });
});
