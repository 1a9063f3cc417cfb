import { embedSessionAnswers, resetSession, signIn, TEST_USER } from '@marque/session/testing';
import { failed } from '@marque/api-client/testing';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { LONG_NAME, order, pdfAnswer, stubBlobUrls } from '../../../test/orders';
import { accountServer } from '../../../test/server';
import { OrderHistoryPage } from './OrderHistoryPage';

const HISTORY = 'GET /api/get/orderhistory/{userId}';
const INVOICE = 'GET /api/get/invoice/{orderId}';

const shipped = order({
  _id: 'o2',
  orderNumber: 'MQ-000002',
  invoiceNumber: 'MQ/26-27/000002',
  createdAt: '2026-06-02T06:30:00.000Z',
  products: [
    { product_id: 'p2', name: LONG_NAME, quantity: 1, price: 18990, gst: 28 },
    { product_id: 'p1', name: 'Oil Filter', quantity: 3, price: 1250.25, gst: 18 },
  ],
  total: 20820.75,
  courier: 'Delhivery',
  awb: '1234567890',
  trackingUrl: 'https://www.delhivery.com/track/package/1234567890',
  order_status: 6,
  order_status_string: 'admin-cancelled',
});

beforeEach(() => resetSession());

describe('/orderhistory', () => {
  it('sends visitors to /login', async () => {
    window.history.replaceState(null, '', '/orderhistory');
    render(<OrderHistoryPage />);
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
  });

  it("says so when there are no orders yet", async () => {
    const server = accountServer({ [HISTORY]: () => ({ status: 'success', result: [], page: 1, pages: 0 }) });
    signIn();
    render(<OrderHistoryPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'PURCHASE HISTORY' })).toBeTruthy();
    expect(await screen.findByText("You don't have any orders yet!")).toBeTruthy();
    expect(server.requests).toContain('/api/get/orderhistory/u1?page=1');
  });

  it('says the history could not be loaded instead of calling it empty', async () => {
    accountServer({ [HISTORY]: () => failed(503, 'Your orders cannot be reached right now.') });
    signIn();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(<OrderHistoryPage />);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Your purchase history could not be loaded right now. Please try again in a moment.',
    );
    expect(screen.queryByText("You don't have any orders yet!")).toBeNull();
  });

  it('draws the page of orders the server wrote into the page in its first render, asking nothing', async () => {
    // Fresh modules, as on a page just opened: the first frame is not painted yet.
    vi.resetModules();
    const { startSession } = await import('@marque/session');
    const { startEarlyUserCheck } = await import('@marque/session/early');
    const { OrderHistoryPage: Page } = await import('./OrderHistoryPage');
    const server = accountServer();
    localStorage.setItem('token', 'good');
    window.history.replaceState(null, '', '/orderhistory?page=2');
    const remove = await embedSessionAnswers('good', [
      { path: '/api/user', query: {}, body: { status: 'success', user: TEST_USER } },
      { path: '/api/get/wishlist/', query: { user: 'u1' }, body: { status: 'success', result: [] } },
      { path: '/api/get/orderhistory/u1', query: { page: '2' }, body: { status: 'success', result: [shipped], page: 2, pages: 2 } },
    ]);
    startEarlyUserCheck();
    await startSession();
    render(<Page />);
    expect(screen.getAllByRole('article').map((a) => a.getAttribute('aria-label'))).toEqual(['Order MQ-000002']);
    expect(server.requests).toEqual([]);
    remove();
  });

  it('shows each order with its facts, badge, invoice buttons and lines', async () => {
    accountServer({ [HISTORY]: () => ({ status: 'success', result: [shipped, order()], page: 1, pages: 1 }) });
    signIn();
    render(<OrderHistoryPage />);
    const [first, second] = await screen.findAllByRole('article');
    const newest = within(first!);
    expect(first!.getAttribute('aria-label')).toBe('Order MQ-000002');
    const fact = (label: string) => newest.getByText(label).nextElementSibling?.textContent;
    expect(fact('Invoice Number')).toBe('MQ/26-27/000002');
    expect(fact('Invoice Total')).toBe('₹20,820.75');
    expect(fact('Courier')).toBe('Delhivery');
    expect(fact('AWB#')).toBe('1234567890');
    expect(fact('Date Placed')).toMatch(/2026/);
    const badge = newest.getByText('cancelled');
    expect(badge.className).toContain('order-badge--red');

    const rows = newest.getAllByRole('row').slice(1);
    expect(within(rows[0]!).getAllByRole('cell')[0]!.textContent).toBe(`${LONG_NAME.slice(0, 40)}...`);
    expect(within(rows[0]!).getAllByRole('cell')[1]!.textContent).toBe('₹18,990');
    expect(within(rows[1]!).getAllByRole('cell')[2]!.textContent).toBe('3');
    expect(newest.getByRole('link', { name: `View ${LONG_NAME}` }).getAttribute('href')).toBe('/product?productId=p2');
    expect(newest.getByRole('link', { name: 'VIEW INVOICE' }).getAttribute('href')).toBe('/orderhistory/render_invoice?orderId=o2');
    expect(newest.getByRole('button', { name: 'DOWNLOAD INVOICE' })).toBeTruthy();
    const track = newest.getByRole('link', { name: 'Track your parcel' });
    expect(track.getAttribute('href')).toBe('https://www.delhivery.com/track/package/1234567890');
    expect(track.getAttribute('rel')).toBe('noopener noreferrer');

    const older = within(second!);
    expect(older.getByText('Courier').nextElementSibling?.textContent).toBe('N/A');
    expect(older.getByText('AWB#').nextElementSibling?.textContent).toBe('N/A');
    expect(older.getByText('placed').className).toContain('order-badge--blue');
    expect(older.queryByRole('link', { name: 'Track your parcel' })).toBeNull();
  });

  it('DOWNLOAD INVOICE saves the PDF as invoice.pdf, fetched with the token', async () => {
    const server = accountServer({
      [HISTORY]: () => ({ status: 'success', result: [shipped], page: 1, pages: 1 }),
      [INVOICE]: () => pdfAnswer(),
    });
    signIn();
    const blobs = stubBlobUrls();
    const saved: Array<{ href: string; download: string }> = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ href: this.href, download: this.download });
    });
    render(<OrderHistoryPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'DOWNLOAD INVOICE' }));
    await waitFor(() => expect(saved).toEqual([{ href: 'blob:invoice-1', download: 'invoice.pdf' }]));
    expect(blobs[0]?.type).toBe('application/pdf');
    const call = server.calls.find((c) => c.path === '/api/get/invoice/o2');
    expect(call?.headers.get('authorization')).toBe('Bearer test-token');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('each credit note of an order has its button beside the invoice, saving the PDF as credit-note.pdf', async () => {
    const refunded = { ...shipped, creditNotes: [{ refundId: 'o2-1', number: 'CN/26-27/000004' }] };
    const server = accountServer({
      [HISTORY]: () => ({ status: 'success', result: [refunded, order()], page: 1, pages: 1 }),
      'GET /api/get/creditnote/{orderId}/{refundId}': () => pdfAnswer(),
    });
    signIn();
    stubBlobUrls();
    const saved: Array<{ href: string; download: string }> = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ href: this.href, download: this.download });
    });
    render(<OrderHistoryPage />);
    const [newest, older] = await screen.findAllByRole('article');
    if (!newest || !older) throw new Error('two order cards');
    const button = within(newest).getByRole('button', { name: 'CREDIT NOTE CN/26-27/000004' });
    expect(button.previousElementSibling?.textContent).toBe('DOWNLOAD INVOICE');
    expect(within(older).queryByRole('button', { name: /CREDIT NOTE/ })).toBeNull();
    await userEvent.click(button);
    await waitFor(() => expect(saved).toEqual([{ href: 'blob:invoice-1', download: 'credit-note.pdf' }]));
    const call = server.calls.find((c) => c.path === '/api/get/creditnote/o2/o2-1');
    expect(call?.headers.get('authorization')).toBe('Bearer test-token');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a credit note that cannot be had says so', async () => {
    accountServer({
      [HISTORY]: () => ({ status: 'success', result: [{ ...shipped, creditNotes: [{ refundId: 'o2-1', number: 'CN/26-27/000004' }] }], page: 1, pages: 1 }),
      'GET /api/get/creditnote/{orderId}/{refundId}': () => failed(404, 'This order has no such credit note.', 'credit_note.not_found'),
    });
    signIn();
    render(<OrderHistoryPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'CREDIT NOTE CN/26-27/000004' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Invoice generation failed');
  });

  it('a download that fails says so', async () => {
    accountServer({
      [HISTORY]: () => ({ status: 'success', result: [shipped], page: 1, pages: 1 }),
      [INVOICE]: () => failed(500, 'Invoice generation failed', 'invoice.failed'),
    });
    signIn();
    render(<OrderHistoryPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'DOWNLOAD INVOICE' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Invoice generation failed');
  });

  it('long histories come in pages', async () => {
    window.history.replaceState(null, '', '/orderhistory?page=2');
    const server = accountServer({ [HISTORY]: () => ({ status: 'success', result: [order()], page: 2, pages: 3 }) });
    signIn();
    render(<OrderHistoryPage />);
    const nav = await screen.findByRole('navigation');
    expect(within(nav).getByRole('link', { name: /3/ }).getAttribute('href')).toBe('/orderhistory?page=3');
    expect(server.requests).toContain('/api/get/orderhistory/u1?page=2');
  });

  it('asks to return a line of a delivered order and shows where the return stands', async () => {
    const delivered = order({ order_status: 5, order_status_string: 'delivered' });
    const server = accountServer({
      [HISTORY]: () => ({ status: 'success', result: [delivered], page: 1, pages: 1 }),
      'POST /api/account/returns': ({ body }) => {
        expect([body.get('orderId'), body.get('productId'), body.get('quantity')]).toEqual(['o1', 'p1', '2']);
        expect(body.get('reason')).toBe('The filter leaks from the seal');
        return Response.json(
          {
            _id: 'r1',
            orderId: 'o1',
            orderNumber: 'MQ-000001',
            productId: 'p1',
            productName: 'Oil Filter',
            quantity: 2,
            reason: 'The filter leaks from the seal',
            photos: 0,
            state: 'requested',
            deliveredAt: '2026-06-03T06:30:00.000Z',
            windowClosesAt: '2026-06-10T06:30:00.000Z',
            createdAt: '2026-06-04T06:30:00.000Z',
            updatedAt: '2026-06-04T06:30:00.000Z',
          },
          { status: 201 },
        );
      },
    });
    signIn();
    render(<OrderHistoryPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Return Oil Filter' }));
    const form = screen.getByRole('form', { name: 'Return Oil Filter' });
    await userEvent.selectOptions(within(form).getByLabelText('Units to return'), '2');
    await userEvent.type(within(form).getByLabelText('What is wrong with the part?'), 'The filter leaks from the seal');
    await userEvent.click(within(form).getByRole('button', { name: 'ASK TO RETURN' }));
    expect(await screen.findByText('2 asked back: waiting for the shop')).toBeTruthy();
    expect(server.requests).toContain('/api/account/returns');
  });

  it("shows the server's refusal of a return outside the warranty", async () => {
    const delivered = order({ order_status: 5, order_status_string: 'delivered' });
    accountServer({
      [HISTORY]: () => ({ status: 'success', result: [delivered], page: 1, pages: 1 }),
      'POST /api/account/returns': () =>
        failed(409, 'The warranty period of this part has ended, so it can no longer be returned.', 'return.window_closed'),
    });
    signIn();
    render(<OrderHistoryPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Return Oil Filter' }));
    const form = screen.getByRole('form', { name: 'Return Oil Filter' });
    await userEvent.type(within(form).getByLabelText('What is wrong with the part?'), 'The filter leaks from the seal');
    await userEvent.click(within(form).getByRole('button', { name: 'ASK TO RETURN' }));
    expect((await within(form).findByRole('alert')).textContent).toBe(
      'The warranty period of this part has ended, so it can no longer be returned.',
    );
  });

  it('offers no return on an order not delivered', async () => {
    accountServer({ [HISTORY]: () => ({ status: 'success', result: [order()], page: 1, pages: 1 }) });
    signIn();
    render(<OrderHistoryPage />);
    expect(await screen.findByRole('article')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Return Oil Filter' })).toBeNull();
  });
});
