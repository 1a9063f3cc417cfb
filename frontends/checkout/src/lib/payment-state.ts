// The history state the review page gives /ordersuccess after a payment: the page is shown only with it.
const KEY = 'marquePayment';

export const PAYMENT_STATE: Record<string, true> = { [KEY]: true };

export function carriesPayment(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as Record<string, unknown>)[KEY] === true;
}
