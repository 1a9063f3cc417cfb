// Calls that need the customer: the bearer token and the client validation header on every one.
import type { Call, Failed, FieldError, RequestBody } from '@marque/api-client';
import { CLIENT_VALIDATION_HEADER, clientValidation } from './client-validation';
import { getSession } from './store';
import { storedToken } from './token';

/** `fetch` with `Authorization: Bearer <token>` and `x-client-validation`; `token` overrides the session's. */
export function authorizedFetch(path: string, init: RequestInit = {}, token?: string | null): Promise<Response> {
  const headers = new Headers(init.headers);
  const bearer = token ?? getSession().token ?? storedToken();
  if (bearer) headers.set('authorization', `Bearer ${bearer}`);
  headers.set(CLIENT_VALIDATION_HEADER, clientValidation());
  return fetch(path, { ...init, headers });
}

/** The request options of `call` with its JSON body, typed by the API document (`'POST /api/add/wishlist'`). */
export function jsonBody<C extends Call>(call: C, body: RequestBody<C>): RequestInit {
  const method = call.slice(0, call.indexOf(' '));
  return { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

/** The answer's JSON, or null when it has none. */
export async function readJson<T>(response: Response): Promise<T | null> {
  try {
    return (await response.json()) as T;
  } catch {
    return null;
  }
}

/** A call's answer: the body on success, else the HTTP status and the server's message, code and failing fields. */
export type Outcome<T> =
  | { ok: true; body: T }
  | { ok: false; status: number; message: string | null; code?: string; errors?: FieldError[] };

/** Reads an answer: 2xx with `status` other than 'failed' is the body; anything else its message, if any (status 0: no answer). */
export async function outcome<T>(request: Promise<Response>): Promise<Outcome<T>> {
  let response: Response;
  try {
    response = await request;
  } catch {
    return { ok: false, status: 0, message: null };
  }
  const body = await readJson<T | Failed>(response);
  if (response.ok && body && (body as Partial<Failed>).status !== 'failed') return { ok: true, body: body as T };
  const failure = body as Partial<Failed> | null;
  return { ok: false, status: response.status, message: failure?.message ?? null, code: failure?.code, errors: failure?.errors };
}
