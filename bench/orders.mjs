// Orders as a busy shop takes them, for bench/orders.sh: customers buying one unit of a random
// in-stock product each, through the real calls (pay, the sandbox's Success, success), against a
// running `dev` server.
//
//   node bench/orders.mjs customers http://127.0.0.1:18081 FILE [count=8]
//       signs up `count` customers with an address each and writes them to FILE (JSON)
//   node bench/orders.mjs buy http://127.0.0.1:18081 FILE products rate seconds
//       places about `rate` orders a second for `seconds`, customers taken in turn, products
//       p000000 … p(products-1) at random; prints what it placed
//
// Every order is two stock changes (the hold at pay, the sale at success). The customers take
// turns so none passes the pay limit (10 a minute each): 8 customers hold 1.3 orders a second.
// (Sign-ups are limited too: 10 code checks a minute from one address.)

import { readFile, writeFile } from 'node:fs/promises';
import { json as apiJson, authed } from '../frontends/e2e/pages.mjs';
import { customer } from './customers.mjs';

const [mode, rawBase, file, ...rest] = process.argv.slice(2);
const base = (rawBase ?? '').replace(/\/$/, '');
const json = (path, init) => apiJson(base, path, init);

/** One order of one unit of a random product: true when placed, false when it was out of stock. */
async function buy(who, products, key) {
  const id = `p${String(Math.floor(Math.random() * products)).padStart(6, '0')}`;
  const started = await fetch(`${base}/api/razorpay/pay`, authed(who.token, 'POST', { products: [{ _id: id, quantity: 1 }], address: { _id: who.address } }));
  const pay = await started.json();
  if (started.status === 409) return false;
  if (!started.ok) throw new Error(`pay ${id}: ${started.status} ${JSON.stringify(pay)}`);
  const handler = await json('/sandbox/razorpay/pay', authed('', 'POST', { order_id: pay.paymentResponse.id, key_id: key, outcome: 'success' }));
  await json('/api/razorpay/success', authed(who.token, 'POST', { razorpayOption: { order_id: pay.paymentResponse.id, ...handler } }));
  return true;
}

if (mode === 'customers') {
  const count = Number(rest[0] ?? 8);
  const customers = [];
  for (let n = 0; n < count; n += 1) {
    customers.push(await customer(base, `9${String(100_000_000 + n * 7_919 + Math.floor(Math.random() * 1_000)).padStart(9, '0')}`));
  }
  await writeFile(file, JSON.stringify(customers));
  console.log(`${count} customers signed up`);
} else if (mode === 'buy') {
  const [products, rate, seconds] = rest.map(Number);
  const customers = JSON.parse(await readFile(file, 'utf8'));
  const { payment } = await json('/api/get/shop');
  const gap = 1000 / rate;
  const until = performance.now() + seconds * 1000;
  let placed = 0;
  let missed = 0;
  for (let turn = 0; performance.now() < until; turn += 1) {
    const started = performance.now();
    if (await buy(customers[turn % customers.length], products, payment.key)) placed += 1;
    else missed += 1;
    await new Promise((done) => setTimeout(done, Math.max(0, gap - (performance.now() - started))));
  }
  console.log(`${placed} orders placed in ${seconds} s (${missed} tries found the product out of stock)`);
} else {
  console.error('usage: node bench/orders.mjs customers|buy BASE FILE …');
  process.exit(2);
}
