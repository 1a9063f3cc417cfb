// The frame of every page: the announcement, header, the page itself, footer, the chat link, the cart panel (from
// the checkout remote) and the garage panel (from the catalog remote), each loaded the first time it opens. Scrolls
// to the top and moves the canonical link whenever the route changes.
import { useCart } from '@marque/cart';
import { useT } from '@marque/i18n';
import { useGarage } from '@marque/session';
import { useCanonicalLink } from '@marque/ui';
import type { ReactNode } from 'react';
import { useLocation, useSearch } from 'wouter';
import { RemoteSlot } from '../../lib/remotes/RemoteSlot';
import { AnnouncementBanner } from './AnnouncementBanner';
import { ChatLink } from './ChatLink';
import { Footer } from './Footer';
import { Header } from './Header';
import { useScrollToTopOnRouteChange } from './use-scroll-to-top';

export function Layout({ children }: { children: ReactNode }) {
  const t = useT('shell');
  const [path] = useLocation();
  const search = useSearch();
  useScrollToTopOnRouteChange();
  useCanonicalLink(path, search);
  return (
    <div className="page">
      <a className="skip-link" href="#main">
        {t('skip_link')}
      </a>
      <AnnouncementBanner />
      <Header />
      <main id="main" className="container page__main">
        {children}
      </main>
      <Footer />
      <ChatLink />
      <CartPanelPlace />
      <GaragePanelPlace />
    </div>
  );
}

function CartPanelPlace() {
  const { panelOpen } = useCart();
  return panelOpen ? <RemoteSlot id="checkout/CartPanel" quiet /> : null;
}

function GaragePanelPlace() {
  const { open } = useGarage();
  return open ? <RemoteSlot id="catalog/Garage" quiet /> : null;
}
