// A staff member's sign-in for the benchmarks: the one-time set-up code (from `marque-server staff add` or the dev
// outbox) with a password and TOTP enrolment, then `POST /api/admin/login` with a fresh TOTP code.
import { json } from '../frontends/e2e/pages.mjs';
import { totpCode } from '../frontends/e2e/totp.mjs';

const post = (body) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Sets up the staff member `email` with set-up `code` and `password`, signs in and returns the session token. */
export async function staffToken(origin, email, code, password) {
  const { totpUri } = await json(origin, '/api/admin/setup', post({ code, password }));
  const { token } = await json(origin, '/api/admin/login', post({ email, password, totp: totpCode(totpUri) }));
  return token;
}
