// The checkout steps: Cart, Authorize (only for a visitor who is not logged in), Address, Review, Pay.
import { useT } from '@marque/i18n';

export type CheckoutStep = 'cart' | 'authorize' | 'address' | 'review' | 'pay';

const STEPS: readonly CheckoutStep[] = ['cart', 'authorize', 'address', 'review', 'pay'];

export function StepBar({ current, authorize }: { current: CheckoutStep; authorize: boolean }) {
  const t = useT('common');
  return (
    <ol className="step-bar" aria-label={t('step.label')}>
      {STEPS.filter((step) => authorize || step !== 'authorize').map((step) => (
        <li
          key={step}
          className={step === current ? 'step-bar__step step-bar__step--current' : 'step-bar__step'}
          aria-current={step === current ? 'step' : undefined}
        >
          {t(`step.${step}`)}
        </li>
      ))}
    </ol>
  );
}
