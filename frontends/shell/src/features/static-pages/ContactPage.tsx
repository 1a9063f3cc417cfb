// Contact us: how to reach the shop.
import { ENQUIRY_PHONE, SUPPORT_EMAIL } from '@marque/ui';
import { StaticPage } from './StaticPage';

export function ContactPage() {
  return (
    <StaticPage title="Contact us">
      <p>Questions about a part, an order or a delivery? We are happy to help.</p>
      <dl className="contact-list">
        <dt>Email</dt>
        <dd>
          <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
        </dd>
        <dt>Phone</dt>
        <dd>{ENQUIRY_PHONE}</dd>
        <dt>Hours</dt>
        <dd>Monday to Saturday, 10:00 to 18:00 IST</dd>
      </dl>
      <p>When you ask about a part, please include its part number or your car&apos;s model, year and variant.</p>
    </StaticPage>
  );
}
