// One order of the purchase history: its facts, its status badge, the invoice buttons (and a credit note button for
// each refund that issued one) and its lines.
import { useLanguage, useT } from '@marque/i18n';
import { TITLE_LIMITS, orderStatusBadge, truncateTitle } from '@marque/rules';
import type { Order } from '@marque/api-client';
import { formatRupees, productHref } from '@marque/ui';
import { useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { FormAlert } from '../../../lib/FormAlert';
import { CREDIT_NOTE_FILENAME, INVOICE_FILENAME, getCreditNote, getInvoice, saveFile } from '../api/get-invoice';
import type { ProductReturn } from '../api/returns';
import { ReturnForm } from './ReturnForm';

/** Status 5: a delivered order's lines may be asked back (the server judges each line's warranty window). */
export const DELIVERED = 5;

/** Where VIEW INVOICE goes for this order. */
export function invoiceHref(orderId: string): string {
  return `/orderhistory/render_invoice?orderId=${encodeURIComponent(orderId)}`;
}

function datePlaced(iso: string, language: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(language === 'hi' ? 'hi-IN' : 'en-IN', { dateStyle: 'medium', timeZone: 'Asia/Kolkata' }).format(date);
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="order-card__fact">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

type CardProps = {
  order: Order;
  /** The customer's returns of this order's lines. */
  returns?: ProductReturn[];
  onReturned?: (made: ProductReturn) => void;
};

const STATES = {
  requested: 'orders.return_state_requested',
  approved: 'orders.return_state_approved',
  refused: 'orders.return_state_refused',
  received: 'orders.return_state_received',
  resolved: 'orders.return_state_resolved',
} as const;

const OUTCOMES = {
  refund: 'orders.return_outcome_refund',
  replacement: 'orders.return_outcome_replacement',
  storeCredit: 'orders.return_outcome_storeCredit',
} as const;

function ReturnState({ made }: { made: ProductReturn }) {
  const t = useT('account');
  const state = STATES[made.state as keyof typeof STATES] ?? STATES.requested;
  const outcomeKey = made.outcome ? OUTCOMES[made.outcome as keyof typeof OUTCOMES] : undefined;
  const outcome = outcomeKey ? ` · ${t(outcomeKey)}` : '';
  return (
    <span className="return-state">
      {t(state, { quantity: made.quantity })}
      {outcome}
      {made.note ? <span className="return-state__note"> · {made.note}</span> : null}
    </span>
  );
}

export function OrderCard({ order, returns = [], onReturned }: CardProps) {
  const t = useT('account');
  const [returning, setReturning] = useState<string | null>(null);
  const delivered = order.order_status === DELIVERED;
  const messages = useT('messages');
  const language = useLanguage();
  const [failed, setFailed] = useState(false);
  const badge = orderStatusBadge(order.order_status, order.order_status_string);
  const orNa = (value: string) => (value.trim() ? value : t('orders.not_available'));

  const download = async (fetchPdf: () => Promise<Blob | null>, filename: string) => {
    setFailed(false);
    const pdf = await fetchPdf();
    if (pdf) saveFile(pdf, filename);
    else setFailed(true);
  };

  return (
    <article className="order-card" aria-label={t('orders.order_label', { number: order.orderNumber })}>
      <dl className="order-card__facts">
        <Fact label={t('orders.date_placed')}>{datePlaced(order.createdAt, language)}</Fact>
        <Fact label={t('orders.invoice_number')}>{order.invoiceNumber}</Fact>
        <Fact label={t('orders.invoice_total')}>{formatRupees(order.total)}</Fact>
        <Fact label={t('orders.courier')}>{orNa(order.courier)}</Fact>
        <Fact label={t('orders.awb')}>{orNa(order.awb)}</Fact>
        <Fact label={t('orders.status')}>
          <span className={`badge order-badge order-badge--${badge.colour}`}>{badge.label}</span>
        </Fact>
      </dl>
      <div className="order-card__actions">
        <Link className="button" href={invoiceHref(order._id)}>
          {t('orders.view_invoice')}
        </Link>
        <button type="button" className="button button--quiet" onClick={() => void download(() => getInvoice(order._id), INVOICE_FILENAME)}>
          {t('orders.download_invoice')}
        </button>
        {order.creditNotes.map((note) => (
          <button
            key={note.refundId}
            type="button"
            className="button button--quiet"
            onClick={() => void download(() => getCreditNote(order._id, note.refundId), CREDIT_NOTE_FILENAME)}
          >
            {t('orders.credit_note', { number: note.number })}
          </button>
        ))}
        {order.trackingUrl ? (
          <a className="button button--quiet" href={order.trackingUrl} target="_blank" rel="noopener noreferrer">
            {t('orders.track')}
          </a>
        ) : null}
      </div>
      {failed ? <FormAlert message={messages('invoice.failed')} /> : null}
      <table className="order-lines">
        <caption>{t('orders.lines_caption', { number: order.orderNumber })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('orders.product')}</th>
            <th scope="col">{t('orders.price')}</th>
            <th scope="col">{t('orders.quantity')}</th>
            <th scope="col">
              <span className="visually-hidden">{t('orders.view_product')}</span>
            </th>
            {delivered ? <th scope="col">{t('orders.returns')}</th> : null}
          </tr>
        </thead>
        <tbody>
          {order.products.map((line) => (
            <tr key={line.product_id}>
              <td title={line.name}>{truncateTitle(line.name, TITLE_LIMITS.orderLine)}</td>
              <td>{formatRupees(line.price)}</td>
              <td>{line.quantity}</td>
              <td>
                <Link href={productHref(line.product_id)} aria-label={t('orders.view_product_label', { name: line.name })}>
                  {t('orders.view_product')}
                </Link>
              </td>
              {delivered ? (
                <td>
                  {returns
                    .filter((r) => r.productId === line.product_id)
                    .map((r) => (
                      <ReturnState key={r._id} made={r} />
                    ))}
                  <button
                    type="button"
                    className="button button--quiet"
                    aria-label={t('orders.return_label', { name: line.name })}
                    onClick={() => setReturning(line.product_id)}
                  >
                    {t('orders.return')}
                  </button>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
      {returning
        ? order.products
            .filter((line) => line.product_id === returning)
            .map((line) => (
              <ReturnForm
                key={line.product_id}
                orderId={order._id}
                productId={line.product_id}
                name={line.name}
                bought={line.quantity}
                onCancel={() => setReturning(null)}
                onDone={(made) => {
                  setReturning(null);
                  onReturned?.(made);
                }}
              />
            ))
        : null}
    </article>
  );
}
