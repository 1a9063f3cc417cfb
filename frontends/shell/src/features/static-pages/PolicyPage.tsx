// Privacy policy: what the shop collects, why, and how to exercise your rights.
import { PRIVACY_EMAIL, SHOP_NAME, SUPPORT_EMAIL } from '@marque/ui';
import { StaticPage } from './StaticPage';

export function PolicyPage() {
  return (
    <StaticPage title="Privacy Policy">
      <p>Effective date: 2021-01-01.</p>
      <p>
        This policy explains how {SHOP_NAME}, the operator of this shop, handles the personal data of its visitors and
        customers.
      </p>
      <h2>Who may use the shop</h2>
      <p>You must be at least 18 years old to create an account or place an order.</p>
      <h2>What we collect and why</h2>
      <p>
        We collect your name, email address, mobile number and delivery addresses to run your account, deliver your
        orders, send invoices and answer your questions. Payments are handled by our card payment provider; we do not
        store card numbers.
      </p>
      <h2>Refunds and warranty</h2>
      <p>
        Parts carry a warranty of 2-15 days depending on the item. Where a faulty part is not replaced, we give a credit
        note valid for 6 months.
      </p>
      <h2>Your rights</h2>
      <p>
        You may ask to see, correct or delete your personal data. Write to{' '}
        <a href={`mailto:${PRIVACY_EMAIL}`}>{PRIVACY_EMAIL}</a> or to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>.
      </p>
    </StaticPage>
  );
}
