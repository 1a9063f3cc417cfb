// POST /api/mobile/login: sends a one-time code to a registered mobile number.
import type { Answer } from '@marque/api-client';
import { outcome, postJson } from '../../../lib/call';

export function requestMobileOtp(mobile: string) {
  return outcome<Answer<'POST /api/mobile/login'>>(postJson('POST /api/mobile/login', { mobile }));
}
