// POST /api/verify: the one-time code for an email or a mobile number; success gives the token.
import type { Answer, RequestBody } from '@marque/api-client';
import { outcome, postJson } from '../call';

export function verifyOtp(request: RequestBody<'POST /api/verify'>) {
  return outcome<Answer<'POST /api/verify'>>(postJson('POST /api/verify', request));
}
