import { getCart, selectAddress, setReview, type Address, type CheckoutItem } from '@marque/cart';
import { resetCart, testLine } from '@marque/cart/testing';
import { failed, type FakeCalls } from '@marque/api-client/testing';
import { resetSession, signIn } from '@marque/session/testing';
import { TEST_SHOP } from '@marque/ui/testing';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { carriesPayment } from '../../../lib/payment-state';
import { checkoutItem, checkoutServer } from '../../../test/server';
import type { ProviderOptions } from '../load-checkout-script';
import { ReviewPage } from './ReviewPage';

const DELHI: Address = { _id: 'a1', houseNo: '12', street: 'Ring Road', landmark: '', city: 'New Delhi', state: 'Delhi', mobileNo: '9811122233', pincode: '110001', gstin: '' };
const PUNE: Address = { ...DELHI, _id: 'a2', city: 'Pune', state: 'Maharashtra', pincode: '411001' };
const ITEMS: CheckoutItem[] = [
  checkoutItem({ price: 2499, quantity: 2, inside_ncr: 100, outside_ncr: 300 }),
  checkoutItem({ _id: 'p2', name: 'Oil filter', price: 450, quantity: 1, inside_ncr: 50, outside_ncr: 150 }),
];

/** The provider's checkout as the page drives it: the options it got, and its failure handler. */
class FakeProvider {
  static last: FakeProvider | null = null;
  failedHandler: ((response: unknown) => void) | null = null;
  opened = false;
  constructor(readonly options: ProviderOptions) {
    FakeProvider.last = this;
  }
  on(_event: string, handler: (response: unknown) => void) {
    this.failedHandler = handler;
  }
  open() {
    this.opened = true;
  }
}

function reviewing(address: Address, items = ITEMS) {
  selectAddress(address);
  setReview(items);
  window.history.replaceState(null, '', '/review');
  return render(<ReviewPage />);
}

const amountOf = (term: string) => screen.getByText(term, { exact: false }).closest('div')?.querySelector('dd')?.textContent;

const payServer = (
  pay: FakeCalls['POST /api/razorpay/pay'] = () => ({ status: 'success', paymentResponse: { id: 'order_1', amount: 564_800, currency: 'INR' }, total: 5648, items: 5448, discount: 0, delivery: 200, storeCredit: 0, toPay: 5648, order: null }),
  success: FakeCalls['POST /api/razorpay/success'] = () => ({
    status: 'success',
    result: { _id: 'o1', orderNumber: 'MQ-1', invoiceNumber: 'INV-1', total: 5648, storeCredit: 0 },
  }),
) =>
  checkoutServer([], {
    'GET /api/get/shop': () => ({ ...TEST_SHOP, payment: { key: 'rzp_test_1', script: '/sandbox/checkout.js' } }),
    'POST /api/razorpay/pay': pay,
    'POST /api/razorpay/success': success,
    'POST /api/razorpay/failed': () => ({ status: 'success' }),
  });

beforeEach(() => {
  resetSession();
  resetCart([testLine()]);
  FakeProvider.last = null;
  window.Razorpay = FakeProvider as never;
  signIn();
});
afterEach(() => {
  delete window.Razorpay;
});

describe('the review page', () => {
  it('without a chosen address goes to /address', () => {
    window.history.replaceState(null, '', '/review');
    render(<ReviewPage />);
    expect(window.location.pathname).toBe('/address');
  });

  it('adds up items, delivery inside NCR (18% GST included) and the total, without a discount', () => {
    reviewing(DELHI);
    expect(amountOf('Items total')).toBe('₹5,448');
    expect(amountOf('Delivery charge')).toBe('₹150');
    expect(screen.getByText('(18% inc. GST)')).toBeTruthy();
    expect(screen.queryByText(/Discount/)).toBeNull();
    expect(amountOf('Total payable')).toBe('₹5,598');
  });

  it('charges delivery outside NCR by the other rate, and takes off an active offer', () => {
    signIn({ offerExp: 3, percentage: 10 });
    reviewing(PUNE);
    expect(amountOf('Delivery charge')).toBe('₹450');
    expect(amountOf('Discount (10%)')).toBe('−₹544');
    expect(amountOf('Total payable')).toBe('₹5,354');
  });

  it('says so when the payment script cannot be loaded', async () => {
    delete window.Razorpay;
    payServer();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const append = document.body.appendChild.bind(document.body);
    vi.spyOn(document.body, 'appendChild').mockImplementation((node) => {
      if (node instanceof HTMLScriptElement) queueMicrotask(() => node.onerror?.(new Event('error')));
      return append(node);
    });
    reviewing(DELHI);
    await userEvent.click(screen.getByRole('button', { name: 'Pay' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Razorpay SDK failed to load. Are you online?');
    expect((screen.getByRole('button', { name: 'Pay' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('says which products are not in stock when the server refuses with 409', async () => {
    payServer(() => failed(409, 'please order products which are in stock', 'checkout.out_of_stock'));
    reviewing(DELHI);
    await userEvent.click(screen.getByRole('button', { name: 'Pay' }));
    expect((await screen.findByRole('alert')).textContent).toBe('please order products which are in stock');
    expect(FakeProvider.last).toBeNull();
  });

  it('says the order is above the limit of units of a part when the server refuses with that code', async () => {
    payServer(() => failed(409, 'One order can hold only a few units of each part.', 'checkout.too_many_units'));
    reviewing(DELHI);
    await userEvent.click(screen.getByRole('button', { name: 'Pay' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'One order can hold only a few units of each part. Please lower the quantity, or contact us for a bulk order.',
    );
    expect(FakeProvider.last).toBeNull();
  });

  it('tells the shopper a late payment for a sold-out part was refunded, not the generic failure', async () => {
    payServer(undefined, () => failed(409, 'Sorry, the part sold out while your payment was on its way.', 'payment.refunded_sold_out'));
    reviewing(DELHI);
    await userEvent.click(screen.getByRole('button', { name: 'Pay' }));
    await vi.waitFor(() => expect(FakeProvider.last?.opened).toBe(true));
    const { options } = FakeProvider.last!;
    await act(async () => options.handler({ razorpay_payment_id: 'pay_9', razorpay_order_id: 'order_1', razorpay_signature: 'sig' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Sorry, the part sold out while your payment was on its way, so no order was placed. Your payment has been refunded in full; it reaches your account in 5-7 working days.',
    );
    expect(window.location.pathname).toBe('/review');
  });

  it('pays once however often Pay is pressed, then places the order, clears the cart and confirms', async () => {
    const server = payServer();
    reviewing(DELHI);
    const pay = screen.getByRole('button', { name: 'Pay' });
    await userEvent.click(pay);
    await userEvent.click(screen.getByRole('button', { name: 'Paying…' }));
    await vi.waitFor(() => expect(FakeProvider.last?.opened).toBe(true));
    expect(server.calls.filter((c) => c.path === '/api/razorpay/pay')).toHaveLength(1);
    const { options } = FakeProvider.last!;
    expect(options).toMatchObject({
      key: 'rzp_test_1',
      amount: 564_800,
      currency: 'INR',
      order_id: 'order_1',
      name: 'Orders',
      description: 'Test Transaction',
      prefill: { name: 'Asha Verma', email: 'asha@example.in', contact: '9811122233' },
    });
    expect(server.calls.find((c) => c.path === '/api/razorpay/pay')?.body).toEqual({
      products: [
        { _id: 'p1', quantity: 2 },
        { _id: 'p2', quantity: 1 },
      ],
      address: DELHI,
      discount: 0,
      user_id: 'u1',
    });

    await act(async () => options.handler({ razorpay_payment_id: 'pay_9', razorpay_order_id: 'order_1', razorpay_signature: 'sig' }));
    await vi.waitFor(() => expect(window.location.pathname).toBe('/ordersuccess'));
    expect(carriesPayment(window.history.state)).toBe(true);
    const success = server.calls.find((c) => c.path === '/api/razorpay/success')?.body as Record<string, Record<string, unknown>>;
    expect(success.razorpayOption).toEqual({ order_id: 'order_1', razorpay_payment_id: 'pay_9', razorpay_order_id: 'order_1', razorpay_signature: 'sig' });
    expect(success.orderHistory).toMatchObject({ user_id: 'u1', order_id: 'order_1', payment_id: 'pay_9', user_name: 'Asha Verma', totalPrice: 5648, address: DELHI });
    expect(getCart()).toMatchObject({ lines: [], address: null, purchase: null });
    expect(localStorage.getItem('products')).toBeNull();
  });

  it('stays on review with a message when the payment fails, and lets the shopper try again', async () => {
    const server = payServer();
    reviewing(DELHI);
    await userEvent.click(screen.getByRole('button', { name: 'Pay' }));
    await vi.waitFor(() => expect(FakeProvider.last?.opened).toBe(true));
    act(() => FakeProvider.last?.failedHandler?.({ error: { description: 'declined' } }));
    expect((await screen.findByRole('alert')).textContent).toBe('The payment did not go through and nothing was charged. Please try again.');
    await vi.waitFor(() => expect(server.calls.find((c) => c.path === '/api/razorpay/failed')?.body).toEqual({ order_id: 'order_1' }));
    expect(window.location.pathname).toBe('/review');
    expect((screen.getByRole('button', { name: 'Pay' }) as HTMLButtonElement).disabled).toBe(false);
    expect(getCart().lines).toHaveLength(1);
  });

  describe('with store credit', () => {
    const CREDIT_UNTIL = '2027-05-27T06:30:00Z';

    it('subtracts the credit from the total payable and shows what is left to pay by card', () => {
      signIn({ storeCredit: { balance: 1000.5, expiresAt: CREDIT_UNTIL } });
      reviewing(DELHI);
      expect(amountOf('Total payable')).toBe('₹5,598');
      expect(amountOf('Store credit')).toBe('−₹1,000.50');
      expect(amountOf('To pay by card')).toBe('₹4,597.50');
      expect(screen.getByRole('button', { name: 'Pay' })).toBeTruthy();
    });

    it('shows no credit lines without a balance', () => {
      reviewing(DELHI);
      expect(screen.queryByText('Store credit')).toBeNull();
      expect(screen.queryByText('To pay by card')).toBeNull();
    });

    it('places the order without opening the card checkout when the credit pays everything', async () => {
      signIn({ storeCredit: { balance: 9000, expiresAt: CREDIT_UNTIL } });
      const server = payServer(() => ({
        status: 'success',
        paymentResponse: { id: 'credit_abc', amount: 0, currency: 'INR' },
        total: 5598,
        items: 5448,
        discount: 0,
        delivery: 150,
        storeCredit: 5598,
        toPay: 0,
        order: { _id: 'o7', orderNumber: 'MQ-7', invoiceNumber: 'MQ/26-27/000007', total: 5598, storeCredit: 5598 },
      }));
      reviewing(DELHI);
      expect(amountOf('Store credit')).toBe('−₹5,598');
      expect(amountOf('To pay by card')).toBe('₹0');
      await userEvent.click(screen.getByRole('button', { name: 'Place order' }));
      await vi.waitFor(() => expect(window.location.pathname).toBe('/ordersuccess'));
      expect(carriesPayment(window.history.state)).toBe(true);
      expect(FakeProvider.last).toBeNull();
      expect(server.calls.filter((c) => c.path === '/api/razorpay/success')).toHaveLength(0);
      expect(getCart()).toMatchObject({ lines: [], address: null, purchase: null });
    });

    it('opens the card checkout for the card part when the server says some is left to pay', async () => {
      signIn({ storeCredit: { balance: 9000, expiresAt: CREDIT_UNTIL } });
      payServer(() => ({
        status: 'success',
        paymentResponse: { id: 'order_2', amount: 59_800, currency: 'INR' },
        total: 5598,
        items: 5448,
        discount: 0,
        delivery: 150,
        storeCredit: 5000,
        toPay: 598,
        order: null,
      }));
      reviewing(DELHI);
      await userEvent.click(screen.getByRole('button', { name: 'Place order' }));
      await vi.waitFor(() => expect(FakeProvider.last?.opened).toBe(true));
      expect(FakeProvider.last?.options).toMatchObject({ amount: 59_800, order_id: 'order_2' });
    });

    it('says so when the credit was spent by another checkout meanwhile', async () => {
      signIn({ storeCredit: { balance: 1000, expiresAt: CREDIT_UNTIL } });
      payServer(() => failed(409, 'Your store credit changed while you were paying.', 'checkout.credit_changed'));
      reviewing(DELHI);
      await userEvent.click(screen.getByRole('button', { name: 'Pay' }));
      expect((await screen.findByRole('alert')).textContent).toBe(
        'Your store credit changed while you were paying. Please review your order again.',
      );
      expect(FakeProvider.last).toBeNull();
    });
  });
});
