// The cart in local storage under `products` (the specification's key), read defensively: a value
// written by an older version or by hand never breaks the page, it only loses what cannot be read.
import type { CartLine } from './types';

export const CART_KEY = 'products';

function isLine(value: unknown): value is CartLine {
  if (typeof value !== 'object' || value === null) return false;
  const line = value as Partial<CartLine>;
  return (
    typeof line._id === 'string' &&
    line._id !== '' &&
    typeof line.name === 'string' &&
    typeof line.price === 'number' &&
    Number.isFinite(line.price) &&
    Number.isInteger(line.quantity) &&
    (line.quantity ?? 0) > 0 &&
    Array.isArray(line.images)
  );
}

export function readLines(): CartLine[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(CART_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isLine) : [];
  } catch {
    return [];
  }
}

export function writeLines(lines: readonly CartLine[]) {
  try {
    if (lines.length === 0) localStorage.removeItem(CART_KEY);
    else localStorage.setItem(CART_KEY, JSON.stringify(lines));
  } catch {
    // A private window may refuse storage: the cart then lasts for this page only.
  }
}
