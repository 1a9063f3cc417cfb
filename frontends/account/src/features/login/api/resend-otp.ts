// POST /api/resendotp: a new code to the same email or mobile number.
import type { ResendOk, ResendRequest } from '@marque/session';
import { outcome, postJson } from '../../../lib/call';

export function resendOtp(request: ResendRequest) {
  return outcome<ResendOk>(postJson('/api/resendotp', request));
}
