// Every admin test: the admin texts loaded (English), no staff session, and no network but the fake one.
import { loadNamespace } from '@marque/i18n';
import { beforeAll, beforeEach } from 'vitest';
import { resetStaffSession } from '../lib/session/staff-session';

beforeAll(async () => {
  await loadNamespace('admin');
});

beforeEach(() => {
  resetStaffSession();
});
