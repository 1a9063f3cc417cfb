// The frame of every page: header, the page itself, footer; scrolls to the top whenever the route changes.
import type { ReactNode } from 'react';
import { Footer } from './Footer';
import { Header } from './Header';
import { useScrollToTopOnRouteChange } from './use-scroll-to-top';

export function Layout({ children }: { children: ReactNode }) {
  useScrollToTopOnRouteChange();
  return (
    <div className="page">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header />
      <main id="main" className="container page__main">
        {children}
      </main>
      <Footer />
    </div>
  );
}
