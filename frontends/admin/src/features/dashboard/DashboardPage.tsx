// The first page after sign-in: one card for each area this role may use, nothing for the others.
import { useT } from '@marque/i18n';
import { Link } from 'wouter';
import type { StaffMe } from '../../lib/api/types';
import { NAV } from '../../lib/layout/nav';
import { AdminPage } from '../../lib/layout/Page';
import { mayUse } from '../../lib/session/areas';

export function DashboardPage({ me }: { me: StaffMe }) {
  const t = useT('admin');
  const cards = NAV.filter((item) => item.area && item.about && mayUse(me, item.area));
  return (
    <AdminPage title={t('dashboard.title')}>
      <p>{t('dashboard.hello', { name: me.name || me.email })}</p>
      <ul className="admin-cards">
        {cards.map((item) => (
          <li key={item.href} className="admin-card">
            <Link href={item.href}>{t(item.label)}</Link>
            {item.about ? <p>{t(item.about)}</p> : null}
          </li>
        ))}
      </ul>
    </AdminPage>
  );
}
