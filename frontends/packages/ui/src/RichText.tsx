// A translated sentence with elements inside it (a link, a phone number), wherever each language puts them.
import { Fragment, type ReactNode } from 'react';

const MARK = '\u0001';

/**
 * `translate` is called with a marker for each of `parts`; the text comes back with the elements in place:
 * `richText((vars) => t('banner.text', vars), { phone: <a href="tel:…">…</a> })` for `… call {{phone}} …`.
 */
export function richText(translate: (vars: Record<string, string>) => string, parts: Record<string, ReactNode>): ReactNode {
  const markers = Object.fromEntries(Object.keys(parts).map((name) => [name, `${MARK}${name}${MARK}`]));
  const pieces = translate(markers).split(MARK);
  // Pieces alternate: text, name, text, name, …
  return pieces.map((piece, index) =>
    index % 2 === 1 && piece in parts ? <Fragment key={index}>{parts[piece]}</Fragment> : piece,
  );
}
