// One answer shape for every accounts call (the session's `outcome`), and a plain JSON POST.
import type { Call, RequestBody } from '@marque/api-client';
import { jsonBody } from '@marque/session';

export { outcome, type Outcome } from '@marque/session';

/** POST `call`'s JSON body (typed by the API document) to its path. */
export function postJson<C extends Call & `POST ${string}`>(call: C, body: RequestBody<C>): Promise<Response> {
  return fetch(call.slice('POST '.length), jsonBody(call, body));
}
