// How a customer's offer reads: the percentage and the days it still runs (`offerExp`), or none.
import type { Translate } from '@marque/i18n';
import type { AdminCustomer } from '../../lib/api/types';
import { indiaDate } from '../../lib/format';

export function offerText(t: Translate<'admin'>, c: Pick<AdminCustomer, 'percentage' | 'offerExp'>): string {
  return c.offerExp > 0 && c.percentage > 0 ? t('offer.running', { percentage: c.percentage, days: c.offerExp }) : t('offer.none');
}

/** Today in India (YYYY-MM-DD), the first day an offer may end on. */
export function indiaToday(now = new Date()): string {
  return indiaDate(now.getTime() / 1000);
}
