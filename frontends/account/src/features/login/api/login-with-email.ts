// POST /api/login: email and password; a customer not verified yet is sent a code instead of a token.
import type { EmailLoginAnswer } from '@marque/session';
import { outcome, postJson } from '../../../lib/call';

export function loginWithEmail(email: string, password: string) {
  return outcome<EmailLoginAnswer>(postJson('/api/login', { email, password }));
}
