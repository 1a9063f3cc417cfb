// The product page shows condition and fuel labels from its own namespace (so they translate);
// in English they must stay the labels the shop's rules define.
import { translate } from '@marque/i18n';
import { CONDITION_FALLBACK_LABEL, CONDITION_LABELS, FUEL_LABELS } from '@marque/rules';
import { describe, expect, it } from 'vitest';

describe('the product namespace labels', () => {
  it('match the rules in English', () => {
    for (const [code, label] of Object.entries(CONDITION_LABELS)) {
      expect(translate('product', `condition.${code as keyof typeof CONDITION_LABELS}`)).toBe(label);
    }
    expect(translate('product', 'condition.other')).toBe(CONDITION_FALLBACK_LABEL);
    for (const [code, label] of Object.entries(FUEL_LABELS)) {
      expect(translate('product', `fuel.${code as keyof typeof FUEL_LABELS}`)).toBe(label);
    }
  });
});
