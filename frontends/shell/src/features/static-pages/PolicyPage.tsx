// Privacy policy: who operates the shop, what it collects and why, and how to exercise your rights.
import { useT } from '@marque/i18n';
import { richText, useShopIdentity } from '@marque/ui';
import { GrievanceOfficerDetails, mailto, SellerDetails } from './SellerDetails';
import { StaticPage } from './StaticPage';

export function PolicyPage() {
  const t = useT('shell');
  const shop = useShopIdentity();
  const grievanceEmail = shop.grievanceOfficer.email || shop.supportEmail;
  return (
    <StaticPage title={t('policy.title')}>
      <p>{t('policy.effective')}</p>
      <p>{t('policy.intro', { operator: shop.legalName || shop.name, shop: shop.name })}</p>
      <h2>{t('policy.operator_heading')}</h2>
      <SellerDetails />
      <h2>{t('policy.age_heading')}</h2>
      <p>{t('policy.age')}</p>
      <h2>{t('policy.collect_heading')}</h2>
      <p>{t('policy.collect')}</p>
      <h2>{t('policy.refunds_heading')}</h2>
      <p>{t('policy.refunds')}</p>
      <h2>{t('policy.rights_heading')}</h2>
      <p>
        {richText((vars) => t('policy.rights', vars), {
          email: mailto(shop.supportEmail),
          grievanceEmail: mailto(grievanceEmail),
        })}
      </p>
      <p>{t('policy.erasure')}</p>
      <GrievanceOfficerDetails />
    </StaticPage>
  );
}
