// POST /api/google/exchange: the landing's one-time code for the session. The sign-in cookie set when this
// browser started the sign-in goes with it (same origin), so a code opened in another browser opens nothing.
import { outcome, postJson } from '../../../lib/call';

export type ExchangeOk = { token: string };

export async function exchangeSignInCode(code: string): Promise<string | null> {
  // The answer is `{ token }` only: `outcome` reads a body without `status` as a success on a 2xx.
  const answer = await outcome<ExchangeOk & { status: string }>(postJson('/api/google/exchange', { token: code }));
  return answer.ok && typeof answer.body.token === 'string' && answer.body.token ? answer.body.token : null;
}
