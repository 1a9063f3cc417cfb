// A shop's staff editing the catalog while shoppers read it (issue 21's bench): a `catalog` staff member added by
// `marque-server staff add` sets up (password, TOTP), signs in, and changes one product's price every INTERVAL ms
// through `PATCH /api/admin/products/{id}`, alternating between two prices, until SIGTERM or SIGINT. Then it prints
// one line: how many edits, how many failed, and the PATCH's median and 99th percentile.
//
//   node bench/edits.mjs <origin> <staff email> <set-up code> [interval ms, 1000] [product id, p000000]
//
// Used by bench/catalog.sh when BENCH_EDITS is set.
import { authed, json } from '../frontends/e2e/pages.mjs';
import { staffToken } from './staff.mjs';

const [origin, email, code, intervalArg, productArg] = process.argv.slice(2);
if (!origin || !email || !code) {
  console.error('usage: node bench/edits.mjs <origin> <staff email> <set-up code> [interval ms] [product id]');
  process.exit(2);
}
const interval = Number(intervalArg ?? 1000);
const product = productArg ?? 'p000000';
const password = 'bench editor password 21';

const token = await staffToken(origin, email, code, password);
const { price } = await json(origin, `/api/admin/products/${product}`, authed(token, 'GET'));

const took = [];
let failed = 0;
let stopping = false;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function report() {
  const sorted = [...took].sort((a, b) => a - b);
  const at = (q) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1) : '-');
  console.log(
    `edits: ${took.length + failed} of product ${product} (one every ${interval} ms), ${failed} failed; ` +
      `PATCH p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`,
  );
}
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => (stopping = true));

for (let n = 0; !stopping; n += 1) {
  const started = performance.now();
  // Two prices in turn (rupees with paise), so every edit is a real change.
  const body = { price: n % 2 === 0 ? price + 1 : price };
  try {
    const response = await fetch(`${origin}/api/admin/products/${product}`, authed(token, 'PATCH', body));
    await response.arrayBuffer();
    if (response.ok) took.push(performance.now() - started);
    else failed += 1;
  } catch {
    failed += 1;
  }
  await sleep(Math.max(0, interval - (performance.now() - started)));
}
report();
