// One answer shape for every accounts call (the session's `outcome`), and a plain JSON POST.
export { outcome, type Outcome } from '@marque/session';

export function postJson(path: string, body: unknown): Promise<Response> {
  return fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}
