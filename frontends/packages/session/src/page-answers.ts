// A signed-in customer's first answers, written into the page by the server when the page request carried the
// session cookie (`<script id="marque-session-data">{ "for": tag, "answers": [{ path, query, body }] }`). They are
// used only when `tag` is the one of the token this page holds now (the server asked them with the cookie's token,
// which another tab may have changed since), and only for this page load. Plain code, no shared imports.
import firstLoads from '../../../../contract/first-loads.json';

/** The element's id, named in contract/first-loads.json as the server reads it. */
export const SESSION_DATA_ELEMENT_ID = firstLoads.scripts.sessionAnswers;

/** One embedded answer: the GET's path and query, and the 200 body the API gave. */
export type PageAnswer = { path: string; query: Record<string, string>; body: unknown };

type Embedded = { for: string; answers: PageAnswer[] };

function isAnswer(a: unknown): a is PageAnswer {
  if (typeof a !== 'object' || a === null) return false;
  const { path, query } = a as Record<string, unknown>;
  return typeof path === 'string' && typeof query === 'object' && query !== null;
}

function readEmbedded(): Embedded | null {
  const text = typeof document === 'undefined' ? null : document.getElementById(SESSION_DATA_ELEMENT_ID)?.textContent;
  if (!text) return null;
  try {
    const parsed = JSON.parse(text) as Partial<Embedded> | null;
    if (typeof parsed?.for !== 'string' || !Array.isArray(parsed.answers)) return null;
    return { for: parsed.for, answers: parsed.answers.filter(isAnswer) };
  } catch {
    return null;
  }
}

/** The server's tag of `token`: the first 16 bytes of SHA-256('marque-page:' + token), in hex. */
export async function tokenTag(token: string): Promise<string | null> {
  const subtle = globalThis.crypto?.subtle;
  // Only in a secure context (https, localhost): elsewhere the page asks as it would without answers.
  if (!subtle) return null;
  const digest = await subtle.digest('SHA-256', new TextEncoder().encode(`marque-page:${token}`));
  return [...new Uint8Array(digest).slice(0, 16)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The answers embedded in this page if they were asked with `token` (else null), or null at once when it has none. */
export function pageAnswersFor(token: string): Promise<PageAnswer[] | null> | null {
  const embedded = readEmbedded();
  if (!embedded) return null;
  return tokenTag(token).then(
    (tag) => (tag === embedded.for ? embedded.answers : null),
    () => null,
  );
}

function sameQuery(expected: Record<string, string>, actual: URLSearchParams): boolean {
  const keys = [...new Set(actual.keys())];
  return (
    keys.length === Object.keys(expected).length &&
    keys.every((key) => actual.getAll(key).length === 1 && actual.get(key) === expected[key])
  );
}

/** The answer for a GET of `url` (a path and query of this origin, as the caller would fetch it), taken out of `answers`. */
export function takeFrom(answers: PageAnswer[] | null, url: string): PageAnswer | undefined {
  if (!answers) return undefined;
  const wanted = new URL(url, 'http://page.invalid');
  const index = answers.findIndex((a) => a.path === wanted.pathname && sameQuery(a.query, wanted.searchParams));
  return index < 0 ? undefined : answers.splice(index, 1)[0];
}
