// POST /api/register (multipart): a new customer, who then verifies the code sent to them.
import { formBody, type Answer } from '@marque/api-client';
import { outcome } from '../../../lib/call';

export type Registration = { name: string; email: string; password: string; mobile: string; profile: File | null };

export function register(form: Registration) {
  const body = formBody('POST /api/register', {
    name: form.name,
    email: form.email,
    password: form.password,
    mobile: form.mobile,
    profile: form.profile,
  });
  return outcome<Answer<'POST /api/register'>>(fetch('/api/register', { method: 'POST', body }));
}
