// Latency of paying: POST /api/razorpay/pay, the sandbox's Success, POST /api/razorpay/success, measured
// from this process against a running `dev` server (payments through its sandbox, codes in its outbox).
//
//   node bench/checkout.mjs http://127.0.0.1:8080 [payments=100]
//
// One customer buys one unit of a different in-stock product per payment, one payment at a time.
// Prints p50, p90, p99 and max of pay + success (the sandbox's bank press is not counted), then the median
// time of GET /api/get/invoice/{orderId} (building and rendering the PDF) over 20 fetches and the PDF's size.

import { json as apiJson, authed } from '../frontends/e2e/pages.mjs';
import { customer } from './customers.mjs';

const base = (process.argv[2] ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
const payments = Number(process.argv[3] ?? 100);

const json = (path, init) => apiJson(base, path, init);

/** Ids of in-stock products, one per payment, from the search listing. */
async function products(n) {
  const ids = [];
  for (let page = 1; ids.length < n; page += 1) {
    const { results, pages } = await json(`/api/get/productBySearch?search=&page=${page}`);
    ids.push(...results.filter((p) => p.quantity >= 1).map((p) => p._id));
    if (page >= pages) break;
  }
  if (ids.length < n) throw new Error(`only ${ids.length} products in stock`);
  return ids.slice(0, n);
}

const { token, address } = await customer(base, `9${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`);
const ids = await products(payments);
const { payment } = await json('/api/get/shop');
const millis = [];
let lastOrder = null;
for (const id of ids) {
  const started = performance.now();
  const pay = await json('/api/razorpay/pay', authed(token, 'POST', { products: [{ _id: id, quantity: 1 }], address: { _id: address } }));
  const paused = performance.now();
  const handler = await json('/sandbox/razorpay/pay', authed('', 'POST', { order_id: pay.paymentResponse.id, key_id: payment.key, outcome: 'success' }));
  const resumed = performance.now();
  const option = { order_id: pay.paymentResponse.id, ...handler };
  lastOrder = (await json('/api/razorpay/success', authed(token, 'POST', { razorpayOption: option }))).result._id;
  millis.push(paused - started + (performance.now() - resumed));
}
millis.sort((a, b) => a - b);
const at = (q) => millis[Math.min(millis.length - 1, Math.floor(q * millis.length))].toFixed(1);
console.log(`pay + success over ${millis.length} payments: p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, p99 ${at(0.99)} ms, max ${millis.at(-1).toFixed(1)} ms`);

const renders = [];
let size = 0;
for (let i = 0; i < 20; i += 1) {
  const started = performance.now();
  const response = await fetch(`${base}/api/get/invoice/${lastOrder}`, { headers: { authorization: `Bearer ${token}` } });
  size = (await response.arrayBuffer()).byteLength;
  renders.push(performance.now() - started);
}
renders.sort((a, b) => a - b);
console.log(`invoice PDF: median ${renders[10].toFixed(1)} ms over 20 fetches, ${size} bytes`);
