// Razorpay's official Node SDK (npm `razorpay`, pinned in package.json) driving the local sandbox:
// run by adapters/razorpay-sandbox/tests/it/node_sdk.rs against a sandbox it serves on a free port.
//
//   SANDBOX_URL=http://127.0.0.1:PORT KEY_ID=… KEY_SECRET=… node drive.mjs
//       orders, payments (through the test bank's buttons), captures and refunds; prints a summary
//   WEBHOOK_SECRET=… node drive.mjs webhooks < events.json
//       `[{ "body", "signature" }]`: each must pass the SDK's validateWebhookSignature, and fail once altered
//
// Any assertion that fails exits non-zero with its message.

import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import Razorpay from 'razorpay';

const require = createRequire(import.meta.url);
const { validatePaymentVerification } = require('razorpay/dist/utils/razorpay-utils');

const env = (name) => {
  const value = process.env[name];
  assert.ok(value, `${name} must be set`);
  return value;
};

async function checkWebhooks() {
  const secret = env('WEBHOOK_SECRET');
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  const events = JSON.parse(text);
  assert.ok(events.length > 0, 'no webhook to check');
  for (const { body, signature } of events) {
    const name = JSON.parse(body).event;
    assert.equal(Razorpay.validateWebhookSignature(body, signature, secret), true, `${name}: the SDK refuses the sandbox's signature`);
    const altered = body.replace('"amount":', '"amount":1');
    assert.equal(Razorpay.validateWebhookSignature(altered, signature, secret), false, `${name}: an altered body passes`);
    assert.equal(Razorpay.validateWebhookSignature(body, signature, `${secret}x`), false, `${name}: another secret passes`);
  }
  return { checked: events.length, events: events.map((e) => JSON.parse(e.body).event) };
}

/** The SDK's error for a refused call: `{ statusCode, error: { code, description } }`. */
async function refusal(call) {
  try {
    await call();
  } catch (e) {
    return { status: e.statusCode, code: e.error?.code, description: e.error?.description };
  }
  assert.fail('the call was not refused');
}

async function drive() {
  const base = env('SANDBOX_URL');
  const key_id = env('KEY_ID');
  const key_secret = env('KEY_SECRET');
  const rzp = new Razorpay({ key_id, key_secret });
  // The SDK has one address, https://api.razorpay.com; its requests go to the sandbox instead.
  rzp.api.rq.defaults.baseURL = base;

  // The test bank's buttons, as the sandbox's checkout script presses them.
  const pay = async (order_id, outcome) => {
    const answer = await fetch(`${base}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ order_id, key_id, outcome }),
    });
    assert.equal(answer.status, 200);
    return answer.json();
  };

  // An order with automatic capture, created and fetched.
  const order = await rzp.orders.create({ amount: 50000, currency: 'INR', receipt: 'MRQ-SDK-1', payment_capture: true, notes: {} });
  assert.match(order.id, /^order_[A-Za-z0-9]{14}$/);
  assert.equal(order.entity, 'order');
  assert.deepEqual([order.amount, order.amount_due, order.amount_paid, order.status], [50000, 50000, 0, 'created']);
  assert.deepEqual(await rzp.orders.fetch(order.id), order);

  // A failed attempt, then a paid one: the handler's signature passes the SDK's check.
  const failed = await pay(order.id, 'failure');
  assert.equal(failed.error.reason, 'payment_failed');
  const handler = await pay(order.id, 'success');
  assert.equal(handler.razorpay_order_id, order.id);
  assert.equal(
    validatePaymentVerification({ order_id: order.id, payment_id: handler.razorpay_payment_id }, handler.razorpay_signature, key_secret),
    true,
  );

  // The payment, captured automatically; the order paid; its payments listed.
  const payment = await rzp.payments.fetch(handler.razorpay_payment_id);
  assert.deepEqual(
    [payment.entity, payment.status, payment.captured, payment.amount, payment.currency, payment.order_id],
    ['payment', 'captured', true, 50000, 'INR', order.id],
  );
  assert.equal((await rzp.orders.fetch(order.id)).status, 'paid');
  const payments = await rzp.orders.fetchPayments(order.id);
  assert.equal(payments.entity, 'collection');
  assert.equal(payments.count, 2);
  assert.deepEqual(
    payments.items.map((p) => [p.id, p.status]).sort(),
    [[failed.error.metadata.payment_id, 'failed'], [payment.id, 'captured']].sort(),
  );

  // An order without automatic capture: authorized, then captured through the SDK.
  const manual = await rzp.orders.create({ amount: 30000, currency: 'INR', receipt: 'MRQ-SDK-2', payment_capture: false });
  const authorized = await rzp.payments.fetch((await pay(manual.id, 'success')).razorpay_payment_id);
  assert.deepEqual([authorized.status, authorized.captured], ['authorized', false]);
  assert.equal((await rzp.orders.fetch(manual.id)).status, 'attempted', 'authorized is not paid');
  const wrongAmount = await refusal(() => rzp.payments.capture(authorized.id, 29999, 'INR'));
  assert.deepEqual(wrongAmount, { status: 400, code: 'BAD_REQUEST_ERROR', description: 'Capture amount must be equal to the amount authorized' });
  const captured = await rzp.payments.capture(authorized.id, 30000, 'INR');
  assert.deepEqual([captured.id, captured.status, captured.captured], [authorized.id, 'captured', true]);
  assert.equal((await rzp.orders.fetch(manual.id)).status, 'paid');
  const twice = await refusal(() => rzp.payments.capture(authorized.id, 30000, 'INR'));
  assert.equal(twice.description, 'This payment has already been captured');

  // Refunds: a partial one with notes, then the rest (no amount: a full refund of what is left).
  const partial = await rzp.payments.refund(payment.id, { amount: 12000, speed: 'normal', notes: { reason: 'one part returned' } });
  assert.match(partial.id, /^rfnd_[A-Za-z0-9]{14}$/);
  assert.deepEqual(
    [partial.entity, partial.amount, partial.currency, partial.payment_id, partial.status, partial.notes.reason],
    ['refund', 12000, 'INR', payment.id, 'processed', 'one part returned'],
  );
  const tooMuch = await refusal(() => rzp.payments.refund(payment.id, { amount: 38001 }));
  assert.deepEqual([tooMuch.status, tooMuch.code], [400, 'BAD_REQUEST_ERROR']);
  const rest = await rzp.payments.refund(payment.id);
  assert.deepEqual([rest.amount, rest.status], [38000, 'processed']);
  const refunded = await rzp.payments.fetch(payment.id);
  assert.deepEqual([refunded.status, refunded.amount_refunded, refunded.refund_status], ['refunded', 50000, 'full']);
  const nothingLeft = await refusal(() => rzp.payments.refund(payment.id, { amount: 100 }));
  assert.equal(nothingLeft.status, 400);
  const full = await rzp.payments.refund(captured.id, { amount: 30000 });
  assert.equal(full.amount, 30000);

  // Refunds fetched: by id, through the payment, and listed.
  assert.deepEqual(await rzp.refunds.fetch(partial.id), partial);
  assert.deepEqual(await rzp.refunds.fetch(partial.id, { payment_id: payment.id }), partial);
  assert.deepEqual(await rzp.payments.fetchRefund(payment.id, rest.id), rest);
  const listed = await rzp.payments.fetchMultipleRefund(payment.id);
  assert.deepEqual([listed.entity, listed.count], ['collection', 2]);
  assert.deepEqual(listed.items.map((r) => r.id).sort(), [partial.id, rest.id].sort());
  assert.equal((await rzp.refunds.all({ payment_id: payment.id })).count, 2);
  const unknown = await refusal(() => rzp.refunds.fetch('rfnd_DoesNotExist00'));
  assert.deepEqual(unknown, { status: 400, code: 'BAD_REQUEST_ERROR', description: 'The id provided does not exist' });

  return { orders: [order.id, manual.id], payments: [payment.id, authorized.id], refunds: [partial.id, rest.id, full.id] };
}

const summary = process.argv[2] === 'webhooks' ? await checkWebhooks() : await drive();
console.log(JSON.stringify({ ok: true, ...summary }));
