// The back office's frame: who is signed in, sign-out, and the navigation to the areas this role may use.
import { useT } from '@marque/i18n';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import type { StaffMe } from '../api/types';
import { mayUse } from '../session/areas';
import { signOut } from '../session/staff-session';
import { NAV, type NavItem } from './nav';

export function AdminLayout({ me, children }: { me: StaffMe; children: ReactNode }) {
  const t = useT('admin');
  const [location] = useLocation();
  const items = NAV.filter((item) => !item.area || mayUse(me, item.area));
  const current = (item: NavItem) => (item.href === '/admin' ? location === '/admin' : location.startsWith(item.href));
  return (
    <div className="admin">
      <div className="admin__bar">
        <p className="admin__who">
          {t('layout.signed_in_as', { name: me.name || me.email })} · {t(`role.${me.role}` as 'role.owner')}
        </p>
        <button type="button" className="admin-link-button" onClick={() => void signOut()}>
          {t('layout.sign_out')}
        </button>
      </div>
      <nav className="admin__nav" aria-label={t('layout.nav')}>
        <ul>
          {items.map((item) => (
            <li key={item.href}>
              <Link href={item.href} aria-current={current(item) ? 'page' : undefined}>
                {t(item.label)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="admin__content">{children}</div>
    </div>
  );
}
