// Reads /composition.json (remote name → its entry script's URL) and registers those remotes.
import { registerRemotes } from '@module-federation/runtime';
import firstLoads from '../../../../../contract/first-loads.json';

export const COMPOSITION_URL = '/composition.json';
/** The same document, embedded by the server in every page (`<script id="marque-composition" type="application/json">`). */
export const COMPOSITION_ELEMENT_ID = firstLoads.scripts.composition;

export type RemoteEntry = { name: string; entry: string };

/** The remotes a composition document names, with each URL made absolute against `base`. */
export function remotesFrom(composition: unknown, base: string): RemoteEntry[] {
  if (typeof composition !== 'object' || composition === null || Array.isArray(composition)) {
    throw new TypeError('composition.json must be an object of remote name → entry URL');
  }
  return Object.entries(composition).map(([name, url]) => {
    if (typeof url !== 'string' || url === '') throw new TypeError(`composition.json: remote "${name}" has no URL`);
    return { name, entry: new URL(url, base).href };
  });
}

let composed: Promise<void> | null = null;

/**
 * Registers the remotes once, from the composition embedded in the page (no round trip) or else from
 * /composition.json; after a failure the next call tries again (the retry button relies on it).
 */
export function ensureComposition(): Promise<void> {
  composed ??= (async () => {
    // Read here, not with @marque/ui's embeddedJson: this runs before the async boundary, where nothing that
    // imports a shared module (React) may be loaded.
    const embedded = document.getElementById(COMPOSITION_ELEMENT_ID)?.textContent;
    if (embedded) {
      registerRemotes(remotesFrom(JSON.parse(embedded), location.href));
      return;
    }
    const response = await fetch(COMPOSITION_URL, { cache: 'no-cache' });
    if (!response.ok) throw new Error(`${COMPOSITION_URL} answered ${response.status}`);
    registerRemotes(remotesFrom(await response.json(), location.href));
  })().catch((error: unknown) => {
    composed = null;
    throw error;
  });
  return composed;
}
