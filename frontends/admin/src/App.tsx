// The back office under /admin: set-up and sign-in for anyone, every other page for a signed-in staff member
// inside the admin frame, each page behind the area the server checks for it.
import { loadNamespace, namespaceLoaded, useT } from '@marque/i18n';
import { useEffect, useState, type ReactNode } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { AuditPage } from './features/audit/AuditPage';
import { BrandsPage } from './features/brands/BrandsPage';
import { CategoriesPage } from './features/categories/CategoriesPage';
import { CustomerPage } from './features/customers/CustomerPage';
import { CustomersPage } from './features/customers/CustomersPage';
import { DashboardPage } from './features/dashboard/DashboardPage';
import { GrievancePage } from './features/grievances/GrievancePage';
import { GrievancesPage } from './features/grievances/GrievancesPage';
import { ReturnPage } from './features/returns/ReturnPage';
import { ReturnsPage } from './features/returns/ReturnsPage';
import { ImportPage } from './features/imports/ImportPage';
import { ImportsPage } from './features/imports/ImportsPage';
import { LoginPage } from './features/login/LoginPage';
import { OrderPage } from './features/orders/OrderPage';
import { OrdersPage } from './features/orders/OrdersPage';
import { ProductEditorPage } from './features/products/ProductEditorPage';
import { ProductsPage } from './features/products/ProductsPage';
import { SetupPage } from './features/setup/SetupPage';
import { StaffPage } from './features/staff/StaffPage';
import { StockPage } from './features/stock/StockPage';
import type { StaffMe } from './lib/api/types';
import { AdminLayout } from './lib/layout/AdminLayout';
import { AreaGate } from './lib/layout/AreaGate';
import type { Area } from './lib/session/areas';
import { restoreStaffSession, useStaffSession } from './lib/session/staff-session';

function Waiting() {
  return <div className="admin-waiting" aria-busy="true" />;
}

function SignedIn({ children }: { children: (me: StaffMe) => ReactNode }) {
  const t = useT('admin');
  const session = useStaffSession();
  useEffect(() => {
    void restoreStaffSession();
  }, []);
  if (session.status === 'unknown') return <Waiting />;
  if (session.status === 'signed-out') return <Redirect to="/admin/login" replace />;
  if (session.status === 'unavailable') {
    return (
      <p className="admin-alert admin-alert--error" role="alert">
        {t('error.unavailable')}
      </p>
    );
  }
  return <AdminLayout me={session.me}>{children(session.me)}</AdminLayout>;
}

const gated = (area: Area, page: (me: StaffMe) => ReactNode) => (me: StaffMe) => (
  <AreaGate me={me} area={area}>
    {page(me)}
  </AreaGate>
);

function AdminRoutes() {
  return (
    <Switch>
      <Route path="/admin/setup" component={SetupPage} />
      <Route path="/admin/login" component={LoginPage} />
      <Route>
        <SignedIn>
          {(me) => (
            <Switch>
              <Route path="/admin/products/new">{gated('products', () => <ProductEditorPage me={me} />)(me)}</Route>
              <Route path="/admin/products/:id">
                {(params) => gated('products', () => <ProductEditorPage me={me} id={params.id} />)(me)}
              </Route>
              <Route path="/admin/products">{gated('products', () => <ProductsPage />)(me)}</Route>
              <Route path="/admin/categories">{gated('categories', () => <CategoriesPage />)(me)}</Route>
              <Route path="/admin/brands">{gated('brands', () => <BrandsPage />)(me)}</Route>
              <Route path="/admin/stock">{gated('stock', () => <StockPage />)(me)}</Route>
              <Route path="/admin/imports/:id">{(params) => gated('imports', () => <ImportPage id={params.id} />)(me)}</Route>
              <Route path="/admin/imports">{gated('imports', () => <ImportsPage />)(me)}</Route>
              <Route path="/admin/orders/:id">{(params) => gated('orders', () => <OrderPage id={params.id} />)(me)}</Route>
              <Route path="/admin/orders">{gated('orders', () => <OrdersPage />)(me)}</Route>
              <Route path="/admin/grievances/:id">
                {(params) => gated('grievances', () => <GrievancePage id={params.id} />)(me)}
              </Route>
              <Route path="/admin/grievances">{gated('grievances', () => <GrievancesPage />)(me)}</Route>
              <Route path="/admin/returns/:id">{(params) => gated('returns', () => <ReturnPage id={params.id} me={me} />)(me)}</Route>
              <Route path="/admin/returns">{gated('returns', () => <ReturnsPage />)(me)}</Route>
              <Route path="/admin/customers/:id">
                {(params) => gated('customersRead', () => <CustomerPage me={me} id={params.id} />)(me)}
              </Route>
              <Route path="/admin/customers">{gated('customersRead', () => <CustomersPage />)(me)}</Route>
              <Route path="/admin/audit">{gated('audit', () => <AuditPage />)(me)}</Route>
              <Route path="/admin/staff">{gated('staff', () => <StaffPage me={me} />)(me)}</Route>
              <Route>
                <DashboardPage me={me} />
              </Route>
            </Switch>
          )}
        </SignedIn>
      </Route>
    </Switch>
  );
}

/** The back office's lazy texts: its labels and the rules' messages only staff read. */
const ADMIN_NAMESPACES = ['admin', 'office'] as const;
const adminTextsLoaded = () => ADMIN_NAMESPACES.every(namespaceLoaded);

/** What the shell shows on every /admin page: the admin texts first (their own chunks), then the page. */
export function AdminApp() {
  const [ready, setReady] = useState(adminTextsLoaded);
  useEffect(() => {
    if (!ready) void Promise.all(ADMIN_NAMESPACES.map(loadNamespace)).then(() => setReady(true));
  }, [ready]);
  return ready ? <AdminRoutes /> : <Waiting />;
}
