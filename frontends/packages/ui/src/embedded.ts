// JSON the server embeds in the page as `<script id="…" type="application/json">` (never an executable script).

/** The parsed content of the embedded JSON element `id`; undefined when the page has none or it is not JSON. */
export function embeddedJson(id: string): unknown {
  if (typeof document === 'undefined') return undefined;
  const text = document.getElementById(id)?.textContent;
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    console.error(`[marque] the embedded #${id} is not valid JSON`, error);
    return undefined;
  }
}
