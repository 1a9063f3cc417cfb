// POST /api/mobile/login: sends a one-time code to a registered mobile number.
import type { MobileLoginOk } from '@marque/session';
import { outcome, postJson } from '../../../lib/call';

export function requestMobileOtp(mobile: string) {
  return outcome<MobileLoginOk>(postJson('/api/mobile/login', { mobile }));
}
