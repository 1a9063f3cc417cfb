// A page of an area this role may not use says so instead of showing a page every call of which the server refuses.
import { useT } from '@marque/i18n';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import type { StaffMe } from '../api/types';
import { mayUse, type Area } from '../session/areas';

export function AreaGate({ me, area, children }: { me: StaffMe; area: Area; children: ReactNode }) {
  const t = useT('admin');
  if (mayUse(me, area)) return <>{children}</>;
  return (
    <section className="admin-page">
      <h1>{t('refused.title')}</h1>
      <p role="alert">{t('refused.text')}</p>
      <Link href="/admin">{t('nav.dashboard')}</Link>
    </section>
  );
}
