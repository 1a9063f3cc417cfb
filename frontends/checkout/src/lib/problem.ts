// What went wrong, as a text code: one of the shop's rule messages, or a checkout text.
import type { Key } from '@marque/i18n';
import { MESSAGES, type MessageCode } from '@marque/rules';

export type Problem = { ns: 'messages'; code: MessageCode } | { ns: 'checkout'; code: Key<'checkout'> };

export const ruleProblem = (code: MessageCode): Problem => ({ ns: 'messages', code });
export const checkoutProblem = (code: Key<'checkout'>): Problem => ({ ns: 'checkout', code });

/** A failed call's problem: its code when the shop's rules know it, else `fallback`. */
export function problemOfCode(code: string | undefined, fallback: MessageCode = 'common.unknown'): Problem {
  return ruleProblem(code !== undefined && Object.hasOwn(MESSAGES, code) ? (code as MessageCode) : fallback);
}
