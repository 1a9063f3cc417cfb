// Who the seller is, as the law asks an e-commerce shop to say: business name, registered office,
// GSTIN and how to reach it. Details the server did not configure are left out, never made up.
import { useT } from '@marque/i18n';
import { useShopIdentity } from '@marque/ui';
import type { ReactNode } from 'react';

export const mailto = (email: string) => <a href={`mailto:${email}`}>{email}</a>;
export const tel = (phone: string) => <a href={`tel:${phone.replace(/[^\d+]/g, '')}`}>{phone}</a>;

export function DetailList({ rows }: { rows: Array<[label: string, value: string, shown?: ReactNode]> }) {
  return (
    <dl className="contact-list">
      {rows
        .filter(([, value]) => value !== '')
        .map(([label, value, shown]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{shown ?? value}</dd>
          </div>
        ))}
    </dl>
  );
}

/** `withContacts={false}` where the page lists the email and phone already. */
export function SellerDetails({ withContacts = true }: { withContacts?: boolean }) {
  const t = useT('shell');
  const shop = useShopIdentity();
  return (
    <DetailList
      rows={[
        [t('seller.legal_name'), shop.legalName],
        [t('seller.address'), shop.address],
        [t('seller.gstin'), shop.gstin],
        [t('seller.email'), withContacts ? shop.supportEmail : '', mailto(shop.supportEmail)],
        [t('seller.phone'), withContacts ? shop.supportPhone : '', tel(shop.supportPhone)],
      ]}
    />
  );
}

/** The Grievance Officer (Consumer Protection (E-Commerce) Rules, 2020, rule 4(4)): name and contacts. */
export function GrievanceOfficerDetails() {
  const t = useT('shell');
  const { grievanceOfficer: officer } = useShopIdentity();
  return (
    <section aria-labelledby="grievance-officer">
      <h2 id="grievance-officer">{t('grievance.heading')}</h2>
      <p>{t('grievance.text')}</p>
      <DetailList
        rows={[
          [t('grievance.name'), officer.name],
          [t('seller.email'), officer.email, mailto(officer.email)],
          [t('seller.phone'), officer.phone, tel(officer.phone)],
        ]}
      />
    </section>
  );
}
