// Condition and fuel labels in the visitor's language: @marque/rules knows the codes (and English labels),
// the `common` catalogue holds the texts.
import type { Translate } from '@marque/i18n';
import { CONDITION_LABELS } from '@marque/rules';

const FUELS = ['petrol', 'diesel', 'hybrid', 'electric'] as const;

/** The condition badge of a product type; any type the shop does not know is a 'Stock Lot'. */
export function conditionText(t: Translate<'common'>, producttype: string): string {
  return Object.hasOwn(CONDITION_LABELS, producttype)
    ? t(`condition.${producttype as keyof typeof CONDITION_LABELS}`)
    : t('condition.other');
}

/** The label of a fuel type; an unknown one is shown as it is. */
export function fuelText(t: Translate<'common'>, fuelType: string): string {
  return (FUELS as readonly string[]).includes(fuelType) ? t(`fuel.${fuelType as (typeof FUELS)[number]}`) : fuelType;
}
