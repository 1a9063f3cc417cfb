// The checkout steps above the login form; this page is the Authorize step.
import { useT } from '@marque/i18n';

const STEPS = ['step.cart', 'step.authorize', 'step.address', 'step.review', 'step.pay'] as const;

export function StepBar() {
  const t = useT('account');
  return (
    <ol className="step-bar" aria-label={t('step.label')}>
      {STEPS.map((step) => (
        <li
          key={step}
          className={step === 'step.authorize' ? 'step-bar__step step-bar__step--current' : 'step-bar__step'}
          aria-current={step === 'step.authorize' ? 'step' : undefined}
        >
          {t(step)}
        </li>
      ))}
    </ol>
  );
}
