// Calls that need the customer: the bearer token and the client validation header on every one.
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

/** A JSON body's request options. */
export function jsonBody(method: string, body: unknown): RequestInit {
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
