// The footer: car brands, the shop's policies, how to reach us, and the copyright year.
import { brandHref, FOOTER_OEM_BRANDS, SHOP_NAME } from '@marque/ui';
import { Link } from 'wouter';

export function Footer() {
  return (
    <footer className="site-footer">
      <div className="container site-footer__grid">
        <nav aria-labelledby="footer-brands">
          <h2 id="footer-brands" className="site-footer__heading">
            Car brands
          </h2>
          <ul>
            {FOOTER_OEM_BRANDS.map((brand) => (
              <li key={brand.slug}>
                <Link href={brandHref(brand.slug)}>{brand.name}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-labelledby="footer-policies">
          <h2 id="footer-policies" className="site-footer__heading">
            Policies
          </h2>
          <ul>
            <li>
              <Link href="/policy">Privacy Policy</Link>
            </li>
            <li>
              <Link href="/termandcondition">Terms</Link>
            </li>
            <li>
              <Link href="/termandcondition">Return Policy</Link>
            </li>
            <li>
              <Link href="/termandcondition">Shipping Policy</Link>
            </li>
          </ul>
        </nav>
        <nav aria-labelledby="footer-help">
          <h2 id="footer-help" className="site-footer__heading">
            Help
          </h2>
          <ul>
            <li>
              <Link href="/contactus">Contact us</Link>
            </li>
            <li>
              <Link href="/about">About us</Link>
            </li>
          </ul>
        </nav>
      </div>
      <p className="container site-footer__copyright">
        © {new Date().getFullYear()} {SHOP_NAME}. All rights reserved.
      </p>
    </footer>
  );
}
