// /orderhistory/render_invoice?orderId=…: a spinner until the order's PDF is fetched, then the PDF and a
// download link; any failure shows 'Invoice generation failed'.
import { useT } from '@marque/i18n';
import { useDocumentTitle } from '@marque/ui';
import { useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import { FormAlert } from '../../../lib/FormAlert';
import { useCustomer } from '../../../lib/use-customer';
import { INVOICE_FILENAME, getInvoice } from '../api/get-invoice';

type State = { kind: 'loading' } | { kind: 'ready'; url: string } | { kind: 'failed' };

export function InvoicePage() {
  const t = useT('account');
  useDocumentTitle(t('invoice.title'));
  const user = useCustomer();
  const orderId = new URLSearchParams(useSearch()).get('orderId') ?? '';
  return (
    <section className="account-page invoice-page">
      <h1>{t('invoice.title')}</h1>
      {user ? <Invoice orderId={orderId} /> : <Spinner />}
    </section>
  );
}

function Spinner() {
  const t = useT('account');
  return (
    <p className="status-message invoice-spinner" role="status">
      <span className="spinner" aria-hidden="true" />
      {t('invoice.preparing')}
    </p>
  );
}

function Invoice({ orderId }: { orderId: string }) {
  const t = useT('account');
  const messages = useT('messages');
  const [state, setState] = useState<State>({ kind: 'loading' });
  useEffect(() => {
    let current = true;
    let url: string | null = null;
    setState({ kind: 'loading' });
    const load = orderId ? getInvoice(orderId) : Promise.resolve(null);
    void load.then((pdf) => {
      if (!current) return;
      if (!pdf) {
        setState({ kind: 'failed' });
        return;
      }
      url = URL.createObjectURL(pdf);
      setState({ kind: 'ready', url });
    });
    return () => {
      current = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [orderId]);

  if (state.kind === 'loading') return <Spinner />;
  if (state.kind === 'failed') return <FormAlert message={messages('invoice.failed')} />;
  return (
    <>
      <iframe className="invoice-frame" src={state.url} title={t('invoice.frame_title')} />
      <p>
        <a className="button" href={state.url} download={INVOICE_FILENAME}>
          {t('invoice.download')}
        </a>
      </p>
    </>
  );
}
