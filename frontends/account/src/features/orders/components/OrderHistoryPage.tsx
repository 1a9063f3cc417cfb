// /orderhistory: 'PURCHASE HISTORY', the customer's orders newest first, 20 a page, or the empty message.
import { clearOnHome } from '@marque/cart';
import { useT } from '@marque/i18n';
import type { Answer, Order, User } from '@marque/api-client';
import { takePageAnswer } from '@marque/session';
import { Pagination, pageFrom, useDocumentTitle, useFirstPaintDone, useRequest } from '@marque/ui';
import { useEffect, useRef, useState } from 'react';
import { useSearch } from 'wouter';
import { Loading } from '../../../lib/Loading';
import { useCustomer } from '../../../lib/use-customer';
import { getOrderHistory, orderHistoryUrl } from '../api/get-order-history';
import { getReturns, type ProductReturn } from '../api/returns';
import { DELIVERED, OrderCard } from './OrderCard';

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

type Loaded = { orders: Order[]; page: number; pages: number; failed?: true };

async function loadHistory(userId: string, page: number): Promise<Loaded> {
  const answer = await getOrderHistory(userId, page);
  if (answer.ok) return { orders: answer.body.result, page, pages: answer.body.pages };
  // Logged (the specification), and told as a failure: a history that did not load is not an empty one.
  console.error('[marque] the purchase history could not be loaded', answer.message);
  return { orders: [], page, pages: 0, failed: true };
}

function History({ user }: { user: User }) {
  const t = useT('account');
  const page = pageFrom(new URLSearchParams(useSearch()).get('page'));
  // Opened on this page: the server may have written this page of orders into it (the signed-in customer's answers).
  const landing = useRef(!useFirstPaintDone());
  const request = useRequest<Loaded>(
    `${user._id}:${page}`,
    () => loadHistory(user._id, page),
    () => {
      const body = landing.current ? takePageAnswer<Answer<'GET /api/get/orderhistory/{userId}'>>(orderHistoryUrl(user._id, page)) : undefined;
      return body?.status === 'success' ? { orders: body.result, page, pages: body.pages } : undefined;
    },
  );
  const loaded = request.status === 'success' ? request.data : null;
  const [returns, setReturns] = useState<ProductReturn[]>([]);
  // Only a delivered order's lines can be returned: the returns are asked for when the page shows one.
  const anyDelivered = loaded?.orders.some((o) => o.order_status === DELIVERED) ?? false;
  useEffect(() => {
    if (!anyDelivered) return;
    let live = true;
    void getReturns().then((answer) => {
      if (live && answer.ok) setReturns(answer.body.results);
    });
    return () => {
      live = false;
    };
  }, [user._id, anyDelivered]);

  if (loaded === null) return <Loading />;
  if (loaded.failed)
    return (
      <p className="status-message" role="alert">
        {t('orders.load_failed')}
      </p>
    );
  if (loaded.orders.length === 0 && loaded.pages === 0) return <p className="status-message">{t('orders.empty')}</p>;
  return (
    <>
      <ol className="order-list">
        {loaded.orders.map((order) => (
          <li key={order._id}>
            <OrderCard
              order={order}
              returns={returns.filter((r) => r.orderId === order._id)}
              onReturned={(made) => setReturns((all) => [made, ...all])}
            />
          </li>
        ))}
      </ol>
      <Pagination page={loaded.page} pages={loaded.pages} hrefFor={(n) => `/orderhistory?page=${n}`} />
    </>
  );
}
