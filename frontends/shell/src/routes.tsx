// The storefront's routes, from the one route table the server also reads (contract/routes.json):
// `catalog/<Module>`, `account/<Module>`, `checkout/<Module>` and `admin/<Module>` pages come from those remotes, `shell/<Page>` pages from the shell itself.
import type { ComponentType, ReactNode } from 'react';
import { parse } from 'regexparam';
import { matchRoute, Route, Switch } from 'wouter';
import table from '../../../contract/routes.json';
import { RemoteSlot } from './lib/remotes/RemoteSlot';
import { AboutPage } from './features/static-pages/AboutPage';
import { ContactPage } from './features/static-pages/ContactPage';
import { NotFoundPage } from './features/static-pages/NotFoundPage';
import { PolicyPage } from './features/static-pages/PolicyPage';
import { TermsPage } from './features/static-pages/TermsPage';

/** `pageLoadOpens`: the path a page load (an open, a reload) of this one shows, for a page whose state lives only
 * in the open tab (the order review, reached from the address step). */
/** `noindex`: kept out of search indexes (the server says so in the page's head; the back office). */
export type RouteEntry = { path: string; page: string; pageLoadOpens?: string; noindex?: boolean };

export const ROUTES: readonly RouteEntry[] = table.routes;

/** Remotes that provide pages of the route table. */
const REMOTE_OWNERS = new Set(['catalog', 'account', 'checkout', 'admin']);

/** The shell's own pages, by the name the route table gives them. */
const SHELL_PAGES: Record<string, ComponentType> = {
  About: AboutPage,
  Contact: ContactPage,
  Policy: PolicyPage,
  Terms: TermsPage,
};

/** What a route table entry shows, or null when the table names a page nobody provides. */
export function pageFor(page: string): ReactNode {
  const [owner, name = ''] = page.split('/', 2);
  if (owner && REMOTE_OWNERS.has(owner) && name) return <RemoteSlot id={page} />;
  const Page = owner === 'shell' ? SHELL_PAGES[name] : undefined;
  return Page ? <Page /> : null;
}

/** Where a page load of `path` lands: the path its route opens on a page load, else `path` itself. */
export function pageLoadPath(path: string): string {
  const found = ROUTES.find((route) => matchRoute(parse, route.path, path)[0]);
  return found?.pageLoadOpens ?? path;
}

/** The remote module that draws the page at `path` (`catalog/Home`), matched as `<Switch>` matches; none for shell pages. */
export function remotePageAt(path: string): string | undefined {
  const found = ROUTES.find((route) => matchRoute(parse, route.path, path)[0]);
  const owner = found?.page.split('/', 1)[0];
  return found && owner && REMOTE_OWNERS.has(owner) ? found.page : undefined;
}

const ROUTE_ELEMENTS = ROUTES.flatMap(({ path, page }) => {
  const content = pageFor(page);
  if (content === null) {
    console.error(`[marque] contract/routes.json: no page "${page}" for ${path}`);
    return [];
  }
  return [
    <Route key={path} path={path}>
      {content}
    </Route>,
  ];
});

export function Routes() {
  return (
    <Switch>
      {ROUTE_ELEMENTS}
      <Route component={NotFoundPage} />
    </Switch>
  );
}
