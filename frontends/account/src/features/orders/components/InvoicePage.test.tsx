import { failed } from '@marque/api-client/testing';
import { resetSession, signIn } from '@marque/session/testing';
import { render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { pdfAnswer, stubBlobUrls } from '../../../test/orders';
import { accountServer } from '../../../test/server';
import { InvoicePage } from './InvoicePage';

const INVOICE = 'GET /api/get/invoice/{orderId}';

beforeEach(() => resetSession());

describe('/orderhistory/render_invoice', () => {
  it('sends visitors to /login', async () => {
    window.history.replaceState(null, '', '/orderhistory/render_invoice?orderId=o1');
    render(<InvoicePage />);
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
  });

  it('shows a spinner until the PDF is fetched, then the PDF and its download link', async () => {
    window.history.replaceState(null, '', '/orderhistory/render_invoice?orderId=o1');
    let answer: (r: Response) => void = () => {};
    const server = accountServer({ [INVOICE]: () => new Promise<Response>((resolve) => (answer = resolve)) });
    signIn();
    const blobs = stubBlobUrls();
    render(<InvoicePage />);
    expect((await screen.findByRole('status')).textContent).toContain('Preparing your invoice…');
    await waitFor(() => expect(server.requests).toContain('/api/get/invoice/o1'));
    answer(pdfAnswer());
    const frame = await screen.findByTitle('Tax invoice (PDF)');
    expect(frame.getAttribute('src')).toBe('blob:invoice-1');
    expect(blobs[0]?.type).toBe('application/pdf');
    expect(screen.queryByRole('status')).toBeNull();
    const link = screen.getByRole('link', { name: 'Download invoice.pdf' });
    expect([link.getAttribute('href'), link.getAttribute('download')]).toEqual(['blob:invoice-1', 'invoice.pdf']);
  });

  it('any failure shows Invoice generation failed', async () => {
    for (const [search, handler] of [
      ['?orderId=o9', () => failed(403, 'You can only use your own account.', 'account.forbidden')],
      ['?orderId=o1', () => new Response('not a pdf', { headers: { 'content-type': 'text/plain' } })],
      ['', () => pdfAnswer()],
    ] as const) {
      window.history.replaceState(null, '', `/orderhistory/render_invoice${search}`);
      accountServer({ [INVOICE]: handler });
      signIn();
      stubBlobUrls();
      const view = render(<InvoicePage />);
      expect((await screen.findByRole('alert')).textContent).toBe('Invoice generation failed');
      expect(screen.queryByTitle('Tax invoice (PDF)')).toBeNull();
      view.unmount();
    }
  });
});
