// Contact us: how to reach the shop, who the seller is, the Grievance Officer and the grievance form.
import { useT } from '@marque/i18n';
import { useShopIdentity } from '@marque/ui';
import { lazy, Suspense } from 'react';
import { DetailList, GrievanceOfficerDetails, mailto, SellerDetails, tel } from './SellerDetails';
import { StaticPage } from './StaticPage';

// Its own chunk: only this page carries the form, not every page's shell.
const GrievanceForm = lazy(() =>
  import(/* webpackChunkName: "grievance-form" */ './grievance/GrievanceForm').then((m) => ({ default: m.GrievanceForm })),
);

export function ContactPage() {
  const t = useT('shell');
  const shop = useShopIdentity();
  return (
    <StaticPage title={t('contact.title')}>
      <p>{t('contact.intro')}</p>
      <DetailList
        rows={[
          [t('seller.email'), shop.supportEmail, mailto(shop.supportEmail)],
          [t('seller.phone'), shop.supportPhone, tel(shop.supportPhone)],
          [t('contact.enquiry'), shop.enquiryPhone, tel(shop.enquiryPhone)],
          [t('contact.hours'), t('contact.hours_value')],
        ]}
      />
      <p>{t('contact.ask')}</p>
      <h2>{t('contact.seller_heading')}</h2>
      <SellerDetails withContacts={false} />
      <GrievanceOfficerDetails />
      <Suspense fallback={null}>
        <GrievanceForm />
      </Suspense>
    </StaticPage>
  );
}
