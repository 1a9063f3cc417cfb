// POST /api/verify: the one-time code for an email or a mobile number; success gives the token.
import type { VerifyOk, VerifyRequest } from '@marque/session';
import { outcome, postJson } from '../../../lib/call';

export function verifyOtp(request: VerifyRequest) {
  return outcome<VerifyOk>(postJson('/api/verify', request));
}
