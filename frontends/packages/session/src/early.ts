// The stored session's check (GET /api/user), started by the shell's entry script before the libraries and
// remotes have loaded, so a signed-in customer's page is not one round trip later than its scripts. When the server
// already wrote the answer into the page (the session cookie, see cookie.ts and page-answers.ts) and it belongs to
// the stored token, that answer is used and nothing is asked. It imports nothing shared (the entry runs before
// shared modules may load); the session picks the answer, and the page's other embedded answers, up at start.
import { CLIENT_VALIDATION_HEADER, clientValidation } from './client-validation';
import { clearSessionCookie, keepSessionCookie } from './cookie';
import { type PageAnswer, pageAnswersFor, takeFrom } from './page-answers';
import { storedToken } from './token';

const EARLY = Symbol.for('marque.session.earlyUserCheck');

/** The pending answer of GET /api/user for `token`, and the page's embedded answers when they are `token`'s. */
export type EarlyCheck = { token: string; response: Promise<Response>; answers: Promise<PageAnswer[] | null> };
type Holder = { [EARLY]?: EarlyCheck };

/** Asks GET /api/user with the stored token, if any (or takes the page's answer), and keeps it for the session. */
export function startEarlyUserCheck(): void {
  const token = storedToken();
  if (!token) {
    // A cookie left without a token (storage cleared): the next page need not carry it.
    clearSessionCookie();
    return;
  }
  // Sessions stored before the cookie existed get it now, so their next page is served with their answers.
  keepSessionCookie(token);
  const ask = () => {
    const headers = { authorization: `Bearer ${token}`, [CLIENT_VALIDATION_HEADER]: clientValidation() };
    return fetch('/api/user', { headers });
  };
  const answers = pageAnswersFor(token);
  const response = answers
    ? answers.then((list) => {
        const user = takeFrom(list, '/api/user');
        if (!user) return ask();
        return new Response(JSON.stringify(user.body), { status: 200, headers: { 'content-type': 'application/json' } });
      })
    : ask();
  // Whoever takes it handles a failure; a page that never does must not report an unhandled rejection.
  response.catch(() => undefined);
  (globalThis as Holder)[EARLY] = { token, response, answers: answers ?? Promise.resolve(null) };
}

/** The early check, once, if it was made with `token` (a later check asks the server again). */
export function takeEarlyUserCheck(token: string): EarlyCheck | undefined {
  const holder = globalThis as Holder;
  const early = holder[EARLY];
  delete holder[EARLY];
  return early?.token === token ? early : undefined;
}
