// The header's account place: a Login button for visitors; for customers their picture opening
// a menu (My Profile, Purchase History, Wishlist, Logout).
import { useT } from '@marque/i18n';
import { logout, useSession } from '@marque/session';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { Avatar } from '../../../lib/Avatar';

export function HeaderMenu() {
  const t = useT('account');
  const { status, user } = useSession();
  const [path] = useLocation();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const menuId = useId();
  useEffect(() => setOpen(false), [path, status]);
  useEffect(() => {
    if (!open) return;
    const outside = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', outside);
    return () => document.removeEventListener('mousedown', outside);
  }, [open]);

  if (status === 'restoring') return null;
  if (status !== 'authenticated' || !user) {
    return (
      <Link href="/login" className="button button--primary header-menu__login">
        {t('menu.login')}
      </Link>
    );
  }

  return (
    <div
      className="header-menu"
      ref={root}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !open) return;
        setOpen(false);
        button.current?.focus();
      }}
    >
      <button
        ref={button}
        type="button"
        className="header-menu__button"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={t('menu.label', { name: user.name })}
        onClick={() => setOpen((o) => !o)}
      >
        <Avatar src={user.profile} size={36} />
      </button>
      {open ? (
        <ul id={menuId} className="header-menu__list">
          <li>
            <Link href="/profile">{t('menu.profile')}</Link>
          </li>
          <li>
            <Link href="/orderhistory">{t('menu.orders')}</Link>
          </li>
          <li>
            <Link href="/wishlist">{t('menu.wishlist')}</Link>
          </li>
          <li>
            <button type="button" onClick={() => void logout()}>
              {t('menu.logout')}
            </button>
          </li>
        </ul>
      ) : null}
    </div>
  );
}
