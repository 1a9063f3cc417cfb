// The footer: car brands, the shop's policies, how to reach us, and the copyright year.
import { useT } from '@marque/i18n';
import { brandHref, FOOTER_OEM_BRANDS, useShopIdentity } from '@marque/ui';
import { Link } from 'wouter';

export function Footer() {
  const t = useT('shell');
  const { name } = useShopIdentity();
  return (
    <footer className="site-footer">
      <div className="container site-footer__grid">
        <nav aria-labelledby="footer-brands">
          <h2 id="footer-brands" className="site-footer__heading">
            {t('footer.brands')}
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
            {t('footer.policies')}
          </h2>
          <ul>
            <li>
              <Link href="/policy">{t('footer.privacy')}</Link>
            </li>
            <li>
              <Link href="/termandcondition">{t('footer.terms')}</Link>
            </li>
            <li>
              <Link href="/termandcondition">{t('footer.returns')}</Link>
            </li>
            <li>
              <Link href="/termandcondition">{t('footer.shipping')}</Link>
            </li>
          </ul>
        </nav>
        <nav aria-labelledby="footer-help">
          <h2 id="footer-help" className="site-footer__heading">
            {t('footer.help')}
          </h2>
          <ul>
            <li>
              <Link href="/contactus">{t('nav.contact')}</Link>
            </li>
            <li>
              <Link href="/about">{t('nav.about')}</Link>
            </li>
          </ul>
        </nav>
      </div>
      <p className="container site-footer__copyright">
        {t('footer.copyright', { year: new Date().getFullYear(), shop: name })}
      </p>
    </footer>
  );
}
