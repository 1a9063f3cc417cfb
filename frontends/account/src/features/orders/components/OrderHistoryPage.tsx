// /orderhistory: 'PURCHASE HISTORY', the customer's orders newest first, 20 a page, or the empty message.
import { clearOnHome } from '@marque/cart';
import { useT } from '@marque/i18n';
import type { Order, User } from '@marque/session';
import { Pagination, pageFrom, useDocumentTitle } from '@marque/ui';
import { useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import { Loading } from '../../../lib/Loading';
import { useCustomer } from '../../../lib/use-customer';
import { getOrderHistory } from '../api/get-order-history';
import { OrderCard } from './OrderCard';

export function OrderHistoryPage() {
  const t = useT('account');
  useDocumentTitle(t('orders.page_title'));
  const user = useCustomer();
  // Visiting resets the selected purchase product and address (the specification's rule).
  useEffect(() => clearOnHome(), []);
  return (
    <section className="account-page order-history-page">
      <h1>{t('orders.title')}</h1>
      {user ? <History user={user} /> : <Loading />}
    </section>
  );
}

type Loaded = { orders: Order[]; page: number; pages: number };

function History({ user }: { user: User }) {
  const t = useT('account');
  const page = pageFrom(new URLSearchParams(useSearch()).get('page'));
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  useEffect(() => {
    let current = true;
    setLoaded(null);
    void getOrderHistory(user._id, page).then((answer) => {
      if (!current) return;
      // A failed load is only logged (the specification) and shows as no orders.
      if (!answer.ok) console.error('[marque] the purchase history could not be loaded', answer.message);
      setLoaded(answer.ok ? { orders: answer.body.result, page, pages: answer.body.pages } : { orders: [], page, pages: 0 });
    });
    return () => {
      current = false;
    };
  }, [user._id, page]);

  if (loaded === null) return <Loading />;
  if (loaded.orders.length === 0 && loaded.pages === 0) return <p className="status-message">{t('orders.empty')}</p>;
  return (
    <>
      <ol className="order-list">
        {loaded.orders.map((order) => (
          <li key={order._id}>
            <OrderCard order={order} />
          </li>
        ))}
      </ol>
      <Pagination page={loaded.page} pages={loaded.pages} hrefFor={(n) => `/orderhistory?page=${n}`} />
    </>
  );
}
