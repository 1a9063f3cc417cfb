// The checkout journey through the real server and the built frontends, in Debian's chromium
// at 360×740. Two parts into the cart from home → quantities → CHECKOUT → sign up and verify on the Authorize step
// → the address form's live validation, then a Delhi (NCR) address → review → the delivery charge for NCR and,
// after switching to a Pune address, outside NCR → Pay: the sandbox checkout's 'Failure' keeps the review,
// 'Success' confirms the order and empties the cart; the payment script blocked shows the SDK message; Purchase
// History shows the order, DOWNLOAD INVOICE saves invoice.pdf (its text read back with pdftotext) and VIEW INVOICE
// shows it; Buy now hides the cart icon. Exits non-zero on any failure, page errors included.
//
// Environment: see harness.mjs.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { BROWSER_ARGS, chromiumPath, check, recordLayoutShifts, serverBin, startServer, steps, watchCsp } from './harness.mjs';
import { codeFor, outboxSize } from './outbox.mjs';

const TIMEOUT = 15_000;
const scratch = mkdtempSync(join(tmpdir(), 'marque-checkout-'));
let stopServer = async () => {};
let browser;
const { step } = steps('checkout');

/** Whether `probe` comes true within a few seconds (the page updates after the server answers). */
async function eventually(probe) {
  for (let i = 0; i < 50; i += 1) {
    if (await probe()) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

/** Whether `locator` shows within a few seconds (pages arrive from their remotes after the address changes). */
async function shows(locator) {
  return locator.first().waitFor({ timeout: 10_000 }).then(() => true, () => false);
}

const mobileNumber = () => `9${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
const cartIcon = (page) => page.getByRole('button', { name: /^Cart, \d+ items$/ });
const amount = async (page, term) =>
  (await page.locator('.review__totals div', { hasText: term }).locator('dd').textContent())?.trim();

/** Paise of an amount as shown (`₹60,517` or `₹1,234.50`). */
const paise = (text) => Math.round(Number((text ?? '').replace(/[^0-9.]/g, '')) * 100);

/** Delivery and total payable by the shop's rules, from the cart's lines and today's catalog (no offer). */
async function expectedTotals(page, base, region) {
  const lines = JSON.parse((await page.evaluate(() => localStorage.getItem('products'))) ?? '[]');
  let items = 0;
  let delivery = 0;
  for (const line of lines) {
    const { data } = await (await fetch(`${base}/api/get/checkoutById/${line._id}`)).json();
    items += Math.round(data.price * 100) * line.quantity;
    delivery += Math.round((region === 'ncr' ? data.inside_ncr : data.outside_ncr) * 100);
  }
  return { delivery, total: items + delivery };
}

/** Units in stock now of each line in the cart. */
async function cartStock(page, base) {
  const lines = JSON.parse((await page.evaluate(() => localStorage.getItem('products'))) ?? '[]');
  const stock = [];
  for (const line of lines) {
    stock.push((await (await fetch(`${base}/api/get/checkoutById/${line._id}`)).json()).data.totalQuantity);
  }
  return stock.join(',');
}

async function fillAddress(page, fields) {
  for (const [label, value] of Object.entries(fields)) {
    if (label === 'State') await page.getByLabel('State').selectOption(value);
    else await page.getByLabel(label, { exact: true }).fill(value);
  }
  await page.getByRole('button', { name: 'Save address' }).click();
}

/** Presses Pay and waits for the sandbox checkout's dialog (its buttons 'Success' and 'Failure'). */
async function openSandbox(page) {
  await page.getByRole('button', { name: 'Pay' }).click();
  const sandbox = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Success' }) });
  await sandbox.waitFor();
  return sandbox;
}

async function main() {
  step(`start ${serverBin}`);
  const started = await startServer(join(scratch, 'data'));
  stopServer = started.stop;
  const base = started.base;

  step(`launch ${chromiumPath} at 360×740`);
  browser = await chromium.launchPersistentContext(join(scratch, 'profile'), {
    executablePath: chromiumPath,
    headless: true,
    args: BROWSER_ARGS,
    viewport: { width: 360, height: 740 },
  });
  const problems = [];
  // Every page the shopper visits must stay still as it loads: at most LAYOUT_SHIFT_LIMIT of layout shift each.
  const shifts = await recordLayoutShifts(browser);
  const page = await browser.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await watchCsp(page, problems);
  // Every failed API answer is printed, so a failing step shows what the server said.
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.includes('razorpay') && process.env.JOURNEY_VERBOSE) console.log(`    → ${request.method()} ${path}`);
  });
  page.on('response', async (response) => {
    const path = new URL(response.url()).pathname;
    if (path.includes('razorpay') && process.env.JOURNEY_VERBOSE) console.log(`    ← ${response.status()} ${path} ${(await response.text().catch(() => '')).slice(0, 160)}`);
    if (response.status() >= 400 && new URL(response.url()).pathname.startsWith('/api/')) {
      console.log(`    ${response.request().method()} ${new URL(response.url()).pathname} → ${response.status()} ${await response.text().catch(() => '')}`);
    }
  });
  page.setDefaultTimeout(TIMEOUT);

  step('two parts into the cart from home; the icon counts them; the second card says Go to cart');
  await page.goto(`${base}/`);
  await page.getByRole('heading', { name: 'Recently Added Products' }).waitFor();
  const cards = page.locator('.home__section').first().locator('.product-card');
  await cards.nth(0).getByRole('button', { name: 'Add to cart' }).click();
  await cards.nth(1).getByRole('button', { name: 'Add to cart' }).click();
  await page.getByRole('button', { name: 'Cart, 2 items' }).waitFor();
  check(await shows(cards.nth(1).getByRole('button', { name: 'Go to cart' })), 'no Go to cart on an added card');

  step('the panel: quantity up twice and down once, subtotal follows; CHECKOUT sends a visitor to log in');
  await cartIcon(page).click();
  const panel = page.getByRole('dialog', { name: 'Your cart' });
  const first = panel.locator('.cart-line').first();
  const subtotalBefore = await panel.locator('.cart-panel__subtotal').textContent();
  await first.getByRole('button', { name: /^One more / }).click();
  await first.getByRole('button', { name: /^One more / }).click();
  await first.getByRole('button', { name: /^One less / }).click();
  check((await first.locator('output').textContent()) === '2', 'the first line is not at quantity 2');
  check((await panel.locator('.cart-panel__subtotal').textContent()) !== subtotalBefore, 'the subtotal did not change');
  await panel.getByRole('button', { name: 'CHECKOUT' }).click();
  await page.waitForURL((url) => url.pathname === '/login');
  check(await shows(page.getByRole('listitem').filter({ hasText: 'Authorize' })), 'no Authorize step on /login');

  step('sign up on the Authorize step; the OTP signs in and checkout goes on to /address');
  const account = { name: 'Kavya Rao', email: `kavya.${Date.now()}@example.in`, password: 'Parts@2026', mobile: mobileNumber() };
  await page.getByRole('button', { name: 'New here? Create an account' }).click();
  await page.getByLabel('Name', { exact: true }).fill(account.name);
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Confirm password', { exact: true }).fill(account.password);
  await page.getByLabel('Mobile number').fill(account.mobile);
  const before = await outboxSize(base);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByLabel('OTP').fill(await codeFor(base, [account.email, account.mobile], before));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL((url) => url.pathname === '/address');

  step('the address form checks as it is typed; a Delhi address is added and chosen');
  await page.getByRole('button', { name: 'NEXT' }).click();
  await page.getByRole('alert').filter({ hasText: 'Please select address for further process' }).waitFor();
  await page.getByRole('button', { name: 'Add a new address' }).click();
  await page.getByLabel('Pincode').fill('012345');
  await page.getByText('Enter a valid 6-digit pincode').waitFor();
  await page.getByLabel('Mobile number').fill('12345');
  await page.getByText('Enter a valid 10-digit Indian mobile number starting with 6-9').waitFor();
  await fillAddress(page, {
    'House No.': '12',
    Street: 'Ring Road',
    City: 'New Delhi',
    State: 'Delhi',
    'Mobile number': '9811122233',
    Pincode: '110001',
  });
  await page.getByRole('status').filter({ hasText: 'address added successfully' }).waitFor();
  const chosen = page.getByRole('radio', { name: /Ring Road, New Delhi/ });
  check(await eventually(() => chosen.isChecked()), 'the new address is not chosen');

  step('review inside NCR: items, delivery (18% inc. GST) and the total');
  await page.getByRole('button', { name: 'NEXT' }).click();
  await page.waitForURL((url) => url.pathname === '/review');
  await page.getByText('(18% inc. GST)').waitFor();
  const ncrDelivery = await amount(page, 'Delivery charge');
  const ncrTotal = await amount(page, 'Total payable');
  console.log(`    NCR delivery ${ncrDelivery}, total ${ncrTotal}`);
  const ncr = await expectedTotals(page, base, 'ncr');
  check(paise(ncrDelivery) === ncr.delivery && paise(ncrTotal) === ncr.total, `NCR: expected ${JSON.stringify(ncr)} paise`);

  step('a Pune address: the delivery charge is the outside-NCR one');
  await page.goto(`${base}/address`);
  await page.getByRole('button', { name: 'Add a new address' }).click();
  await fillAddress(page, { 'House No.': '7B', City: 'Pune', State: 'Maharashtra', 'Mobile number': '9822233344', Pincode: '411001' });
  await page.getByRole('status').filter({ hasText: 'address added successfully' }).waitFor();
  const pune = page.getByRole('radio', { name: /Pune/ });
  check(await eventually(() => pune.isChecked()), 'the Pune address is not chosen');
  await page.getByRole('button', { name: 'NEXT' }).click();
  await page.waitForURL((url) => url.pathname === '/review');
  const outsideDelivery = await amount(page, 'Delivery charge');
  const outsideTotal = await amount(page, 'Total payable');
  console.log(`    outside NCR delivery ${outsideDelivery}, total ${outsideTotal}`);
  const outside = await expectedTotals(page, base, 'outside');
  check(
    paise(outsideDelivery) === outside.delivery && paise(outsideTotal) === outside.total,
    `outside NCR: expected ${JSON.stringify(outside)} paise`,
  );

  step('the payment script blocked: the SDK message, and Pay can be pressed again');
  const { payment } = await (await fetch(`${base}/api/get/shop`)).json();
  await page.route(new URL(payment.script, base).href, (route) => route.abort());
  await page.getByRole('button', { name: 'Pay' }).click();
  await page.getByRole('alert').filter({ hasText: 'Razorpay SDK failed to load. Are you online?' }).waitFor();
  await page.unroute(new URL(payment.script, base).href);

  step("the sandbox's Failure: still on review, with a message; the held stock is given back");
  const stockBefore = await cartStock(page, base);
  let sandbox = await openSandbox(page);
  check(await eventually(async () => (await cartStock(page, base)) !== stockBefore), 'Pay held no stock');
  await sandbox.getByRole('button', { name: 'Failure' }).click();
  await page.getByRole('alert').filter({ hasText: 'The payment did not go through' }).waitFor();
  check(new URL(page.url()).pathname === '/review', 'a failed payment left the review page');
  check(await eventually(async () => (await cartStock(page, base)) === stockBefore), 'the failed payment kept the stock');

  step("the sandbox's Success: 'Order Confirmed!', and the cart is empty");
  sandbox = await openSandbox(page);
  const [confirmed] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === '/api/razorpay/success'),
    sandbox.getByRole('button', { name: 'Success' }).click(),
  ]);
  const placed = (await confirmed.json()).result;
  await page.waitForURL((url) => url.pathname === '/ordersuccess');
  await page.getByRole('heading', { level: 1, name: 'Order Confirmed!' }).waitFor();
  await page.getByRole('button', { name: 'Cart, 0 items' }).waitFor();
  check((await page.evaluate(() => localStorage.getItem('products'))) === null, 'localStorage.products is still set');
  step('Purchase History shows the order with its badge; DOWNLOAD INVOICE saves invoice.pdf; VIEW INVOICE shows it');
  await page.goto(`${base}/orderhistory`);
  const historyShown = await shows(page.getByRole('heading', { level: 1, name: 'PURCHASE HISTORY' }));
  check(historyShown, `no purchase history at ${page.url()}: ${(await page.locator('main').textContent())?.slice(0, 300)}`);
  const card = page.locator('.order-card').filter({ hasText: placed.invoiceNumber });
  await card.waitFor();
  check(await shows(card.locator('.order-badge--blue')), 'the new order has no blue (placed) badge');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    card.getByRole('button', { name: 'DOWNLOAD INVOICE' }).click(),
  ]);
  check(download.suggestedFilename() === 'invoice.pdf', `the invoice saved as ${download.suggestedFilename()}`);
  const saved = join(scratch, 'invoice.pdf');
  await download.saveAs(saved);
  const text = execFileSync('pdftotext', ['-layout', saved, '-']).toString();
  const total = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2 }).format(placed.total);
  check(text.includes(placed.invoiceNumber) && text.includes(total), `invoice.pdf lacks ${placed.invoiceNumber} or ${total}`);
  console.log(`    ${placed.invoiceNumber}, total ${total}, ${text.includes('Tax Invoice') ? 'a tax invoice' : 'no title'}`);
  await card.getByRole('link', { name: 'VIEW INVOICE' }).click();
  await page.waitForURL((url) => url.pathname === '/orderhistory/render_invoice');
  await page.locator('iframe[title="Tax invoice (PDF)"]').waitFor();

  // Opened afresh in a new tab (not from a payment), the confirmation sends the visitor home.
  const fresh = await page.context().newPage();
  await fresh.goto(`${base}/ordersuccess`);
  await fresh.waitForURL((url) => url.pathname === '/');
  await fresh.close();
  await page.goto(`${base}/`);

  step('Buy now on a product page hides the cart icon and goes to /address');
  await page.locator('.product-card__link').first().click();
  await page.getByRole('button', { name: 'Buy now' }).click();
  await page.waitForURL((url) => url.pathname === '/address');
  check((await cartIcon(page).count()) === 0, 'the cart icon shows during a direct purchase');

  await shifts.flush(page);
  shifts.check('checkout journey');
  check(problems.length === 0, problems.join('\n'));
  console.log('PASS: checkout journey done');
}

main()
  .catch((error) => {
    console.error(`FAIL: ${error.stack ?? error}`);
    process.exitCode = 1;
  })
  .finally(async () => {
    await browser?.close().catch(() => {});
    await stopServer();
    rmSync(scratch, { recursive: true, force: true });
  });
