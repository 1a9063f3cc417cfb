// Contact us: how to reach the shop, who the seller is, and the Grievance Officer.
import { useT } from '@marque/i18n';
import { useShopIdentity } from '@marque/ui';
import { DetailList, GrievanceOfficerDetails, mailto, SellerDetails, tel } from './SellerDetails';
import { StaticPage } from './StaticPage';

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
    </StaticPage>
  );
}
