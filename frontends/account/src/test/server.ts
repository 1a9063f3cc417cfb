// The accounts API faked for these tests: a signed-in customer's user and an empty wishlist unless told otherwise.
import { fakeServer, type FakeCalls, type FakeServer } from '@marque/api-client/testing';
import { TEST_USER } from '@marque/session/testing';
import { afterEach } from 'vitest';

let current: FakeServer | null = null;

afterEach(() => {
  current?.restore();
  current = null;
});

export function accountServer(calls: FakeCalls = {}): FakeServer {
  current?.restore();
  current = fakeServer(
    {},
    {
      'GET /api/user': () => ({ status: 'success', user: TEST_USER }),
      'GET /api/get/wishlist': () => ({ status: 'success', result: [] }),
      'GET /api/account/returns': () => ({ results: [] }),
      ...calls,
    },
  );
  return current;
}
