// The first page after sign-in: for the roles that run orders, what waits on the shop now (orders to confirm, pack
// and ship, refunds pending or failed, returns waiting, notices to customers that failed, grievances past their
// clocks, low stock, and for the owner today's and this month's sales); then one card for each area this role may use, nothing for the others.
import { useT, type Key } from '@marque/i18n';
import { formatRupees } from '@marque/ui';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import type { AdminDashboard, StaffMe } from '../../lib/api/types';
import { useAnswer } from '../../lib/api/use-answer';
import { FormAlert } from '../../lib/form/Field';
import { NAV } from '../../lib/layout/nav';
import { AdminPage } from '../../lib/layout/Page';
import { mayUse } from '../../lib/session/areas';

function Figure({ label, value, href }: { label: string; value: ReactNode; href?: string }) {
  return (
    <div className="admin-figure">
      <dt>{href ? <Link href={href}>{label}</Link> : label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

function Figures() {
  const t = useT('admin');
  const { state } = useAnswer('GET /api/admin/dashboard');
  if (state.status === 'loading') return <div className="admin-waiting" aria-busy="true" />;
  if (state.status === 'failed') return <FormAlert message={state.message} />;
  const d: AdminDashboard = state.body;
  const rows: Array<[Key<'admin'>, number, string | undefined]> = [
    ['dashboard.to_confirm', d.toConfirm, '/admin/orders?status=1'],
    ['dashboard.to_pack', d.toPack, '/admin/orders?status=2'],
    ['dashboard.to_ship', d.toShip, '/admin/orders?status=3'],
    ['dashboard.refunds_pending', d.refundsPending, '/admin/orders'],
    ['dashboard.refunds_failed', d.refundsFailed, '/admin/orders'],
    ['dashboard.returns_waiting', d.returnsWaiting, '/admin/returns?state=requested'],
    // Each order's page lists its notices; there is no list of them all.
    ['dashboard.notices_failed', d.noticesFailed, undefined],
    ['dashboard.grievances_overdue', d.grievancesOverdue, '/admin/grievances?state=open'],
    ['dashboard.low_stock', d.lowStock, '/admin/stock'],
  ];
  return (
    <section className="admin-panel" aria-labelledby="dashboard-waiting">
      <h2 id="dashboard-waiting">{t('dashboard.waiting')}</h2>
      <dl className="admin-figures">
        {rows.map(([label, value, href]) => (
          <Figure key={label} label={t(label)} value={value} href={href} />
        ))}
        {d.sales ? (
          <>
            {/* Sales come in paise: the server's integer, shown in rupees. */}
            <Figure label={t('dashboard.sales_today')} value={formatRupees(d.sales.today / 100)} />
            <Figure label={t('dashboard.sales_month')} value={formatRupees(d.sales.thisMonth / 100)} />
          </>
        ) : null}
      </dl>
    </section>
  );
}

export function DashboardPage({ me }: { me: StaffMe }) {
  const t = useT('admin');
  const cards = NAV.filter((item) => item.area && item.about && mayUse(me, item.area));
  return (
    <AdminPage title={t('dashboard.title')}>
      <p>{t('dashboard.hello', { name: me.name || me.email })}</p>
      {mayUse(me, 'orders') ? <Figures /> : null}
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
