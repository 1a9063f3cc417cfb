// Terms and conditions, which also hold the return and shipping policies.
import { useT } from '@marque/i18n';
import { useShopIdentity } from '@marque/ui';
import { SellerDetails } from './SellerDetails';
import { StaticPage } from './StaticPage';

export function TermsPage() {
  const t = useT('shell');
  const { name } = useShopIdentity();
  return (
    <StaticPage title={t('terms.title')}>
      <p>{t('terms.intro', { shop: name })}</p>
      <h2>{t('terms.prices_heading')}</h2>
      <p>{t('terms.prices')}</p>
      <h2>{t('terms.shipping_heading')}</h2>
      <p>{t('terms.shipping')}</p>
      <h2>{t('terms.warranty_heading')}</h2>
      <p>{t('terms.warranty')}</p>
      <h2>{t('terms.units_heading')}</h2>
      <p>{t('terms.units')}</p>
      <h2>{t('terms.seller_heading')}</h2>
      <SellerDetails />
    </StaticPage>
  );
}
