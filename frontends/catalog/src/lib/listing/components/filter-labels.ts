// The catalogue code of each value the fixed filters offer; `satisfies` fails the build when the rules
// offer a value that has no text here.
import type { Key } from '@marque/i18n';
import type { FILTER_VALUES } from '@marque/rules';

type FixedKind = keyof typeof FILTER_VALUES;

export const VALUE_LABELS = {
  product_type: { old: 'value_old', new: 'value_new' },
  fuel_type: { petrol: 'value_petrol', diesel: 'value_diesel' },
} as const satisfies { [K in FixedKind]: Record<(typeof FILTER_VALUES)[K][number], Key<'listing'>> };

/** The code of a fixed filter's value, or undefined for a value the rules do not offer. */
export function valueLabelKey(kind: FixedKind, value: string): Key<'listing'> | undefined {
  const labels: Record<string, Key<'listing'>> = VALUE_LABELS[kind];
  return Object.hasOwn(labels, value) ? labels[value] : undefined;
}
