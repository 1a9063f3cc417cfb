// POST /api/register (multipart): a new customer, who then verifies the code sent to them.
import type { RegisterOk } from '@marque/session';
import { outcome } from '../../../lib/call';

export type Registration = { name: string; email: string; password: string; mobile: string; profile: File | null };

export function register(form: Registration) {
  const body = new FormData();
  body.set('name', form.name);
  body.set('email', form.email);
  body.set('password', form.password);
  body.set('mobile', form.mobile);
  if (form.profile) body.set('profile', form.profile);
  return outcome<RegisterOk>(fetch('/api/register', { method: 'POST', body }));
}
