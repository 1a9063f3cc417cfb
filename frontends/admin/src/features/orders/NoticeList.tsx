// An order's customer notices: each email and SMS queued for it, where it stands (sent, waiting for an attempt,
// failed after the last one) and why the last attempt failed, so staff can tell the customer themselves. The texts
// are the customer's and are not shown. Read again whenever the order changes (its version is the component's key).
import { useT } from '@marque/i18n';
import { useAnswer } from '../../lib/api/use-answer';
import { when } from '../../lib/format';

const KINDS = ['order-confirmed', 'order-shipped', 'order-delivered', 'order-cancelled', 'order-refunded'] as const;
type Kind = (typeof KINDS)[number];
const known = (kind: string): kind is Kind => (KINDS as readonly string[]).includes(kind);

export function NoticeList({ id }: { id: string }) {
  const t = useT('admin');
  const { state } = useAnswer('GET /api/admin/orders/{id}/notices', { path: { id } });
  if (state.status !== 'done' || state.body.results.length === 0) return null;
  return (
    <section className="admin-panel" aria-labelledby="notices">
      <h2 id="notices">{t('orders.notices')}</h2>
      <ul>
        {state.body.results.map((n) => (
          <li key={n._id}>
            {known(n.kind) ? t(`orders.notice_${n.kind}`) : n.kind} · {t(`orders.notice_channel_${n.channel}`)} ·{' '}
            {n.recipient} · <strong>{t(`orders.notice_state_${n.state}`)}</strong> · {when(n.queuedAt)}
            {n.attempts > 0 ? ` · ${t('orders.notice_attempts', { count: n.attempts })}` : ''}
            {n.lastError ? ` · ${n.lastError}` : ''}
          </li>
        ))}
      </ul>
    </section>
  );
}
