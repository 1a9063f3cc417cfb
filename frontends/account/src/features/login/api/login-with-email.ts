// POST /api/login: email and password; a customer not verified yet is sent a code instead of a token.
import type { Answer } from '@marque/api-client';
import { outcome, postJson } from '../../../lib/call';

export function loginWithEmail(email: string, password: string) {
  return outcome<Answer<'POST /api/login'>>(postJson('POST /api/login', { email, password }));
}
