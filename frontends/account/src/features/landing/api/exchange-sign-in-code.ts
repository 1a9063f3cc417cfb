// POST /api/google/exchange: the landing's one-time code for the session. The sign-in cookie set when this
// browser started the sign-in goes with it (same origin), so a code opened in another browser opens nothing.
import type { Answer } from '@marque/api-client';
import { outcome, postJson } from '../../../lib/call';

export async function exchangeSignInCode(code: string): Promise<string | null> {
  // The answer is `{ token }` only: `outcome` reads a body without `status` as a success on a 2xx.
  const answer = await outcome<Answer<'POST /api/google/exchange'>>(postJson('POST /api/google/exchange', { token: code }));
  return answer.ok && typeof answer.body.token === 'string' && answer.body.token ? answer.body.token : null;
}
