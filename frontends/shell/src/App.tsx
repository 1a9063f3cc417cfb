// The storefront's routes: catalog pages come from the catalog remote, static pages from the shell.
import { Route, Switch } from 'wouter';
import { Layout } from './features/layout/Layout';
import { RemoteSlot } from './features/remotes/RemoteSlot';
import { AboutPage } from './features/static-pages/AboutPage';
import { ContactPage } from './features/static-pages/ContactPage';
import { NotFoundPage } from './features/static-pages/NotFoundPage';
import { PolicyPage } from './features/static-pages/PolicyPage';
import { TermsPage } from './features/static-pages/TermsPage';

export function App() {
  return (
    <Layout>
      <Switch>
        <Route path="/">
          <RemoteSlot id="catalog/Home" />
        </Route>
        <Route path="/search">
          <RemoteSlot id="catalog/Search" />
        </Route>
        <Route path="/product">
          <RemoteSlot id="catalog/Product" />
        </Route>
        <Route path="/brand/:brandSlug">
          <RemoteSlot id="catalog/Brand" />
        </Route>
        <Route path="/about" component={AboutPage} />
        <Route path="/contactus" component={ContactPage} />
        <Route path="/policy" component={PolicyPage} />
        <Route path="/termandcondition" component={TermsPage} />
        <Route component={NotFoundPage} />
      </Switch>
    </Layout>
  );
}
