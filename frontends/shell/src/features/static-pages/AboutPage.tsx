// About us: who runs the shop and what it sells.
import { useT } from '@marque/i18n';
import { richText, useShopIdentity } from '@marque/ui';
import { Link } from 'wouter';
import { StaticPage } from './StaticPage';

export function AboutPage() {
  const t = useT('shell');
  const shop = useShopIdentity();
  return (
    <StaticPage title={t('about.title')}>
      <p>{t('about.intro', { shop: shop.name })}</p>
      <p>{t('about.listing')}</p>
      <p>
        {richText((vars) => t('about.missing', vars), {
          contact: <Link href="/contactus">{t('about.contact_link')}</Link>,
        })}
      </p>
      {shop.legalName ? <p>{t('about.operator', { shop: shop.name, legalName: shop.legalName })}</p> : null}
    </StaticPage>
  );
}
