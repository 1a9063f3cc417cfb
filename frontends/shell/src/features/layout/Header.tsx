// The header: the shop's name, the main links (behind a menu button on phones), the part search, "My garage",
// the language selector, the cart icon (from the checkout remote) and the account place: a plain Login link
// for a visitor, the account remote's menu once a session exists or is being restored (so a visitor's first
// page does not load the account remote for it).
import { useT } from '@marque/i18n';
import { useSession } from '@marque/session';
import { useShopIdentity } from '@marque/ui';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { RemoteSlot } from '../../lib/remotes/RemoteSlot';
import { GarageButton } from './GarageButton';
import { LanguageSelect } from './LanguageSelect';
import { SearchBox } from './SearchBox';

export function Header() {
  const t = useT('shell');
  const { name } = useShopIdentity();
  const [path] = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  // A chosen link closes the phone menu.
  useEffect(() => setMenuOpen(false), [path]);

  return (
    <header className="site-header">
      <div className="container site-header__inner">
        <Link href="/" className="site-header__logo" aria-label={t('header.home_label', { shop: name })}>
          <span aria-hidden="true" className="site-header__mark">
            M
          </span>
          <span className="site-header__name">{name}</span>
        </Link>
        <button
          ref={menuButton}
          type="button"
          className="site-header__menu-button"
          aria-expanded={menuOpen}
          aria-controls="site-nav"
          onClick={() => setMenuOpen((open) => !open)}
        >
          <svg aria-hidden="true" width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
            <path d="M3 6h18M3 12h18M3 18h18" />
          </svg>
          <span className="visually-hidden">{t('header.menu')}</span>
        </button>
        <nav
          id="site-nav"
          className={menuOpen ? 'site-header__nav site-header__nav--open' : 'site-header__nav'}
          aria-label={t('nav.label')}
          onKeyDown={(event) => {
            if (event.key !== 'Escape' || !menuOpen) return;
            setMenuOpen(false);
            menuButton.current?.focus();
          }}
        >
          <Link href="/">{t('nav.home')}</Link>
          <Link href="/about">{t('nav.about')}</Link>
          <Link href="/contactus">{t('nav.contact')}</Link>
        </nav>
        <SearchBox />
        <GarageButton />
        <LanguageSelect />
        <div className="site-header__actions">
          <span className="site-header__slot">
            <RemoteSlot id="checkout/CartButton" quiet />
          </span>
          <span className="site-header__slot">
            <AccountPlace />
          </span>
        </div>
      </div>
    </header>
  );
}

function AccountPlace() {
  const t = useT('account');
  const { status } = useSession();
  if (status !== 'anonymous') return <RemoteSlot id="account/HeaderMenu" quiet />;
  return (
    <Link href="/login" className="button site-header__login">
      {t('menu.login')}
    </Link>
  );
}
