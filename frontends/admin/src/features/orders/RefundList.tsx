// An order's refunds: what each gave back, why, who made it and when, and where it stands at the payment provider;
// a failed one has a Retry (the server asks the provider again, never paying twice); one that issued a GST credit
// note names it, and its button downloads the note's PDF.
import { useT } from '@marque/i18n';
import { formatRupees } from '@marque/ui';
import { useState } from 'react';
import { adminCall } from '../../lib/api/calls';
import { adminPdf, saveFile } from '../../lib/api/pdf';
import type { AdminOrder } from '../../lib/api/types';
import { FormAlert } from '../../lib/form/Field';
import { useMessageText } from '../../lib/form/messages';
import { when } from '../../lib/format';

export function RefundList({ order, onSaved }: { order: AdminOrder; onSaved: (o: AdminOrder) => void }) {
  const t = useT('admin');
  const messageText = useMessageText();
  const [busy, setBusy] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);
  if (order.refunds.length === 0) return null;
  const creditNote = async (refund: string) => {
    setAlert(null);
    const pdf = await adminPdf('GET /api/admin/orders/{id}/refunds/{refund}/credit-note', { path: { id: order.order._id, refund } });
    if (pdf) saveFile(pdf, 'credit-note.pdf');
    else setAlert(messageText('invoice.failed', ''));
  };
  const retry = async (refund: string) => {
    setBusy(true);
    setAlert(null);
    try {
      const answer = await adminCall('POST /api/admin/orders/{id}/refunds/{refund}/retry', { path: { id: order.order._id, refund } });
      if (answer.ok) onSaved(answer.body.order);
      else setAlert(messageText(answer.code, answer.message));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="admin-panel" aria-labelledby="refunds">
      <h2 id="refunds">{t('orders.refunds')}</h2>
      {alert ? <FormAlert message={alert} /> : null}
      <ul>
        {order.refunds.map((r) => (
          <li key={r._id}>
            <strong>{formatRupees(r.amount)}</strong> · {t(`orders.refund_state_${r.state}` as 'orders.refund_state_failed')} ·{' '}
            {r.reason} · {r.by} · {when(r.createdAt)}
            <ul>
              {r.lines.map((l) => (
                <li key={l.productId}>
                  {l.name} × {l.quantity} · {formatRupees(l.amount)}
                  {l.restock ? ` · ${t('orders.restocked')}` : ''}
                </li>
              ))}
              {r.deliveryCharge > 0 ? (
                <li>
                  {t('orders.refund_delivery')} · {formatRupees(r.deliveryCharge)}
                </li>
              ) : null}
            </ul>
            {r.creditNote ? (
              <button type="button" className="button button--quiet" onClick={() => void creditNote(r._id)}>
                {t('orders.credit_note', { number: r.creditNote })}
              </button>
            ) : null}
            {r.state === 'failed' ? (
              <button type="button" className="button" disabled={busy} onClick={() => void retry(r._id)}>
                {t('orders.retry')}
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
