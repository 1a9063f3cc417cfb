// One answer shape for every accounts call: the body on success, else the server's message (and code).
import { readJson, type Failed } from '@marque/session';

export type Outcome<T> = { ok: true; body: T } | { ok: false; message: string | null; code?: string };

/** Reads an answer: 2xx with `status` other than 'failed' is the body; anything else its message, if any. */
export async function outcome<T extends { status: string }>(request: Promise<Response>): Promise<Outcome<T>> {
  let response: Response;
  try {
    response = await request;
  } catch {
    return { ok: false, message: null };
  }
  const body = await readJson<T | Failed>(response);
  if (response.ok && body && body.status !== 'failed') return { ok: true, body: body as T };
  const failure = body as Partial<Failed> | null;
  return { ok: false, message: failure?.message ?? null, code: failure?.code };
}

export function postJson(path: string, body: unknown): Promise<Response> {
  return fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}
