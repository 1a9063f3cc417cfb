// POST /api/resendotp: a new code to the same email or mobile number.
import type { Answer, RequestBody } from '@marque/api-client';
import { outcome, postJson } from '../call';

export function resendOtp(request: RequestBody<'POST /api/resendotp'>) {
  return outcome<Answer<'POST /api/resendotp'>>(postJson('POST /api/resendotp', request));
}
