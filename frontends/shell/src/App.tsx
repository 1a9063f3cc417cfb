// The storefront: the layout around the page the route table names for the current address.
import { Layout } from './features/layout/Layout';
import { Routes } from './routes';

export function App() {
  return (
    <Layout>
      <Routes />
    </Layout>
  );
}
