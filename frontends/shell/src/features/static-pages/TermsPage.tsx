// Terms and conditions, which also hold the return and shipping policies.
import { SHOP_NAME } from '@marque/ui';
import { StaticPage } from './StaticPage';

export function TermsPage() {
  return (
    <StaticPage title="Terms and Conditions">
      <p>These terms apply to every order placed with {SHOP_NAME}.</p>
      <h2>Prices</h2>
      <p>All prices are in Indian rupees and include GST. Delivery charges are shown before you pay.</p>
      <h2>Shipping</h2>
      <p>
        Parts ship within 24-48 hours of a confirmed order. We cannot refund damage that happens in transit; you may
        collect your part yourself instead.
      </p>
      <h2>Warranty and returns</h2>
      <p>
        The warranty is 2 to 15 days depending on the part. A faulty part must be returned together with its invoice.
        Replacing the part is at the seller&apos;s discretion; otherwise we issue a credit note, which is valid for 6
        months.
      </p>
      <h2>Gearboxes and engines</h2>
      <p>
        The warranty does not cover racing, taxi, off-road or modified use, nor remapped engines. The unit must be fitted
        by a certified garage, with proof of the fitting. Units are shipped without fluids.
      </p>
    </StaticPage>
  );
}
