// The frame of every page: the announcement, header, the page itself, footer and the chat link.
// Scrolls to the top and moves the canonical link whenever the route changes.
import { useT } from '@marque/i18n';
import { useCanonicalLink } from '@marque/ui';
import type { ReactNode } from 'react';
import { useLocation, useSearch } from 'wouter';
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
    </div>
  );
}
