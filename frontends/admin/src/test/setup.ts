// Every admin test: the admin texts and the staff's rule messages loaded (English), no staff session, and no network but the fake one.
import { loadNamespace } from '@marque/i18n';
import { beforeAll, beforeEach } from 'vitest';
import { resetStaffSession } from '../lib/session/staff-session';

beforeAll(async () => {
  await Promise.all([loadNamespace('admin'), loadNamespace('office')]);
});

beforeEach(() => {
  resetStaffSession();
});
