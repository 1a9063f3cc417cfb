// Every back-office call: the staff token as a bearer and the client validation header, each call's path
// parameters, body and answer typed by the API document. A 401 on any call but set-up and sign-in ends the staff
// session.
import type { Answer, Call, FormFields, PathParams, RequestBody } from '@marque/api-client';
import { CLIENT_VALIDATION_HEADER, clientValidation, outcome, type Outcome } from '@marque/session';
import { storedStaffToken } from '../session/token';

/** Every back-office call of the document, `'METHOD /api/admin/…'`. */
export type AdminCall = Extract<Call, `${string} /api/admin/${string}`>;

/** What a call takes: its JSON body, or a form for a multipart call (the photographs' upload). */
export type AdminBody<C extends AdminCall> = [RequestBody<C>] extends [never]
  ? [FormFields<C>] extends [never]
    ? never
    : FormData
  : RequestBody<C>;

export type AdminRequest<C extends AdminCall> = {
  /** The `{id}`-style path parameters the document names. */
  path?: PathParams<C>;
  /** Query parameters (a list's page, size, search and filters, as its address holds them); empty ones are left out. */
  query?: Record<string, string | number | boolean | null | undefined>;
  body?: AdminBody<C>;
  /** Headers a call takes besides the session's (an order change's `If-Match`). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
};

/** Calls that do not need a session: their 401 is an answer, not the end of one. */
const OPEN_CALLS = new Set<AdminCall>(['POST /api/admin/setup', 'POST /api/admin/login']);

let onSessionLost: () => void = () => {};

/** What happens when the server no longer knows the staff token (the session module sends the page to sign-in). */
export function whenSessionLost(handler: () => void) {
  onSessionLost = handler;
}

/** The URL of `call` with its path parameters and query. */
export function urlOf<C extends AdminCall>(call: C, request: Pick<AdminRequest<C>, 'path' | 'query'> = {}): string {
  const template = call.slice(call.indexOf(' ') + 1);
  const params = (request.path ?? {}) as Record<string, string | number>;
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name] ?? '')));
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined && value !== null && value !== '') query.set(key, String(value));
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** Makes `call` and reads its answer (the body, or the status with the server's message and code). */
export async function adminCall<C extends AdminCall>(call: C, request: AdminRequest<C> = {}): Promise<Outcome<Answer<C>>> {
  const method = call.slice(0, call.indexOf(' '));
  const headers = new Headers(request.headers);
  const token = storedStaffToken();
  if (token && !OPEN_CALLS.has(call)) headers.set('authorization', `Bearer ${token}`);
  headers.set(CLIENT_VALIDATION_HEADER, clientValidation());
  let body: BodyInit | undefined;
  if (request.body instanceof FormData) body = request.body;
  else if (request.body !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(request.body);
  }
  const answer = await outcome<Answer<C>>(fetch(urlOf(call, request), { method, headers, body, signal: request.signal }));
  if (!answer.ok && answer.status === 401 && !OPEN_CALLS.has(call)) onSessionLost();
  return answer;
}
