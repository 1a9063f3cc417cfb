// About us: who runs the shop and what it sells.
import { SHOP_NAME } from '@marque/ui';
import { Link } from 'wouter';
import { StaticPage } from './StaticPage';

export function AboutPage() {
  return (
    <StaticPage title="About us">
      <p>
        {SHOP_NAME} is an online marketplace for spare parts for luxury cars, for owners and garages across India. We
        list new parts, new parts without their original box, refurbished parts and carefully checked used parts for
        Audi, BMW, Mercedes-Benz, Jaguar, Range Rover, Land Rover, Volvo and Porsche.
      </p>
      <p>
        Every listing shows the part number, the condition, the fuel type and the variant it fits, so you can match the
        part to your car before you order. Prices are in rupees and include GST.
      </p>
      <p>
        Many of our parts are not online yet. If you cannot find what you need, <Link href="/contactus">contact us</Link>{' '}
        and we will look for it.
      </p>
    </StaticPage>
  );
}
