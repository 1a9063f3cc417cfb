// The back office's journey through the real server and the built frontends, in Debian's chromium at 1280×800 and at
// 360×740 (the issue's "Must show"): an owner set up by the CLI (`marque-server staff add`) opens the set-up link,
// chooses a password and enrols the authenticator (QR code and secret; the codes come from totp.mjs, the `otpauth`
// library, as an authenticator app computes them), signs in with a TOTP code; creates a category, a subcategory and a product with three photographs; finds it on the
// storefront by its part number typed with spaces; changes its price and sees the storefront follow within a second;
// records stock received; sets an offer for a customer who then sees the discount on /review; reads all of it in the
// audit trail (filtered by each record); and a `catalog` staff member the owner invited is refused the customers'
// offers, then downloads the catalog as CSV, checks a file of five new parts with three bad rows (a dry run: the
// report on the page and in errors.csv names each, nothing is written), applies the corrected file while its page
// follows the job, and finds an imported part on the storefront by its superseded number typed loosely. A
// `fulfilment` member confirms, packs and ships one of a customer's orders with a courier and AWB (the shipping email
// and SMS with the AWB reach the dev outbox), refunds one unit of another with restock (the stock comes back, and the
// payment sandbox holds the refund); the customer's purchase history (360 px) shows the courier, AWB and
// tracking link, and the credit note it downloads names itself and the invoice (read with pdftotext); the member marks
// the shipped order delivered, the customer asks to return one of its parts (with a photo), the member approves,
// receives and resolves it as store credit, and the customer's profile shows the balance and the next /review subtracts
// it from the amount left to pay by card. Before any of that, the admin pages are the shell with `noindex`, and a
// storefront page loads none of the admin. No admin page scrolls sideways at 360 px, and none shifts its layout above LAYOUT_SHIFT_LIMIT.
// Exits non-zero on any failure, page errors included; the step it reached is printed.
//
// Environment: see harness.mjs.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { chromium } from 'playwright-core';
import { BROWSER_ARGS, chromiumPath, check, recordLayoutShifts, serverBin, startServer, steps, watchCsp } from './harness.mjs';
import { outbox } from './outbox.mjs';
import { authed, json, payFor, prepareCustomer } from './pages.mjs';
import { writePngIn } from './png.mjs';
import { totpStep } from './totp.mjs';

const TIMEOUT = 20_000;
const OWNER = { email: 'owner@journey.example.in', name: 'Journey Owner', password: 'a long owner passphrase 2026' };
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 360, height: 740 },
];

const scratch = mkdtempSync(join(tmpdir(), 'marque-admin-'));
const db = `surrealkv://${join(scratch, 'db')}`;
let stopServer = async () => {};
let browser;
const { step, at: stepNumber } = steps('admin');

// ---- the authenticator ---------------------------------------------------------------------------------------

/** The latest time step each secret signed in with: the server refuses that step's code, or an earlier one's, again. */
const lastStep = new Map();
/**
 * A code the server takes for this secret now. It accepts the codes of the steps either side of its own (a phone's
 * clock drifts), so after a sign-in in this step the next step's code is used, and only a third sign-in in one
 * 30-second step waits for the next.
 */
async function freshCode(secret) {
  for (;;) {
    const at = Date.now();
    const last = lastStep.get(secret) ?? -Infinity;
    const usable = [totpStep(secret, at), totpStep(secret, at + 30_000)].find(({ step }) => step > last);
    if (usable) {
      lastStep.set(secret, usable.step);
      return usable.code;
    }
    await new Promise((done) => setTimeout(done, totpStep(secret, at).msLeft + 50));
  }
}

/** Searches an admin table (the page's header has a search box of its own). */
async function searchTable(page, table, text) {
  const region = page.getByRole('region', { name: table });
  await region.getByRole('searchbox').fill(text);
  await region.getByRole('button', { name: 'Search', exact: true }).click();
}

async function noHorizontalScroll(page, where) {
  const [scrollWidth, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  check(scrollWidth <= width, `${where}: the page scrolls sideways (${scrollWidth}px wide in a ${width}px window)`);
}

// ---- the CLI -------------------------------------------------------------------------------------------------

/** `marque-server staff add …` on the stopped embedded database: its output names the one-time set-up link. */
function cliAddStaff(email, name, role) {
  return new Promise((resolve, reject) => {
    const child = spawn(serverBin, ['staff', 'add', '--email', email, '--name', name, '--role', role], {
      env: { ...process.env, MARQUE_DB: db, MARQUE_DATA_DIR: join(scratch, 'data'), MARQUE_ENV: 'dev' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('error', reject);
    child.on('exit', (code) => {
      const link = /\/admin\/setup\?code=[^\s"']+/.exec(out);
      if (code === 0 && link) resolve(link[0]);
      else reject(new Error(`marque-server staff add: exit ${code}, no set-up link in its output:\n${out}`));
    });
  });
}

// ---- pages -------------------------------------------------------------------------------------------------

/** Sets the password on a set-up link's page and reads the secret the page shows under the QR code. */
async function setUp(page, base, link, password) {
  await page.goto(`${base}${link}`);
  await page.getByLabel('New password (12 to 128 characters)').fill(password);
  await page.getByLabel('Repeat the password').fill(password);
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor({ timeout: TIMEOUT });
  const secret = (await page.locator('code.admin-secret').textContent())?.trim() ?? '';
  check(/^[A-Z2-7]{16,}=*$/.test(secret), `the set-up page shows no base32 secret: "${secret}"`);
  return secret;
}

async function signIn(page, base, email, password, secret) {
  await page.goto(`${base}/admin/login`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Authenticator code', { exact: true }).fill(await freshCode(secret));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === '/admin', { timeout: TIMEOUT });
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
}

/** The signed-in customer's `page` puts product `productId` in the cart from its page and goes on to /review. */
async function toReview(page, base, productId) {
  await page.goto(`${base}/product?productId=${encodeURIComponent(productId)}`);
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await page.waitForFunction(() => (localStorage.getItem('products') ?? '').includes('"quantity"'));
  await page.goto(`${base}/address`);
  await page.getByRole('radio').first().check();
  await page.getByRole('button', { name: 'NEXT' }).click();
  await page.waitForURL((url) => url.pathname === '/review', { timeout: TIMEOUT });
}

async function journey(base, context, shifts, width, ownerSecret, customer) {
  const page = await context.newPage();
  /** The admin page now: no sideways scrolling, and no layout shift over the limit since the last look. */
  const looksRight = async (where) => {
    await noHorizontalScroll(page, `${width} px, ${where}`);
    await shifts.flush(page);
    shifts.check(`${width} px, ${where}`);
  };
  const tag = `J${width}${Date.now() % 100000}`;
  const partNo = `${tag}X77A`;

  step(`${width} px: sign in with a TOTP code; the navigation shows every area of an owner`);
  await signIn(page, base, OWNER.email, OWNER.password, ownerSecret);
  for (const area of ['Products', 'Categories', 'Brands', 'Stock', 'Customers', 'Audit trail', 'Staff']) {
    check(await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: area, exact: true }).isVisible(), `${area} missing from the owner's navigation`);
  }
  await looksRight('the dashboard');

  step(`${width} px: a category and a subcategory`);
  await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Categories', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Categories' }).waitFor();
  await page.getByLabel('Name', { exact: true }).first().fill(`Journey ${tag}`);
  await page.getByRole('button', { name: 'Add category' }).click();
  const row = page.getByRole('row', { name: new RegExp(`Journey ${tag}`) });
  await row.waitFor({ timeout: TIMEOUT });
  await row.getByRole('button', { name: 'Add subcategory' }).click();
  await row.getByLabel('Name', { exact: true }).fill(`Sub ${tag}`);
  await row.getByRole('button', { name: 'Add subcategory' }).click();
  await row.getByText(`Sub ${tag}`).waitFor({ timeout: TIMEOUT });
  await looksRight('categories');

  step(`${width} px: a product in it with three photographs`);
  await page.goto(`${base}/admin/products/new`);
  const field = (label) => page.getByLabel(label, { exact: true });
  await field('Name').fill(`Journey part ${tag}`);
  await field('Price (₹, GST included)').fill('1499.50');
  await field('Category').selectOption({ label: `Journey ${tag}` });
  await field('Subcategory').selectOption({ label: `Sub ${tag}` });
  await field('Brand').selectOption({ index: 1 });
  await field('Variant (models it fits)').fill('Swift 2018');
  await field('Part number').fill(partNo);
  await field('Shop SKU').fill(`SKU-${tag}`);
  await field('HSN code').fill('8708');
  await field('Weight (grams)').fill('900');
  await field('Length (mm)').fill('200');
  await field('Width (mm)').fill('150');
  await field('Height (mm)').fill('40');
  await field('Stock').fill('3');
  await page.getByRole('button', { name: 'Create product' }).click();
  await page.waitForURL((url) => /^\/admin\/products\/[^/]+$/.test(url.pathname) && !url.pathname.endsWith('/new'), { timeout: TIMEOUT });
  const productId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
  const photos = [[200, 30, 30], [30, 160, 60], [40, 60, 200]].map((colour, i) => writePngIn(scratch, `${tag}-${i}.png`, colour, 640));
  await page.getByLabel('Add photographs').setInputFiles(photos);
  // Each photograph is decoded, scaled and encoded as WebP and JPEG by the server: a debug build takes its time.
  const refusal = page.locator('section[aria-labelledby="photos-title"] [role="alert"]');
  await page.waitForFunction(
    () => document.querySelectorAll('.admin-photos img').length === 3 || document.querySelector('section[aria-labelledby="photos-title"] [role="alert"]'),
    undefined,
    { timeout: 120_000 },
  );
  // The refusal's text only when there is one: asked of a missing element, Playwright waits its whole timeout (30 s).
  if ((await refusal.count()) > 0) check(false, `the photographs were refused: ${await refusal.first().textContent()}`);
  check((await page.getByRole('button', { name: 'Remove' }).count()) === 3, 'the three photographs cannot each be removed');
  await looksRight('the product with its photographs');

  step(`${width} px: the storefront finds it by its part number typed with spaces`);
  const shop = await context.newPage();
  const spaced = partNo.replace(/(.{3})/g, '$1 ').trim();
  await shop.goto(`${base}/search?search=${encodeURIComponent(spaced)}&page=1`);
  await shop.getByRole('link', { name: new RegExp(`Journey part ${tag}`) }).first().waitFor({ timeout: TIMEOUT });

  step(`${width} px: a new price, and the storefront follows within a second`);
  await field('Price (₹, GST included)').fill('1299');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByText('Saved.').waitFor({ timeout: TIMEOUT });
  // Every product page requested a second or more after the save must show the new price: pages are opened one
  // after another until one shows it, and it must have been asked for within that second.
  const saved = Date.now();
  let shown;
  for (;;) {
    const asked = Date.now() - saved;
    await shop.goto(`${base}/product?productId=${encodeURIComponent(productId)}`);
    await shop.getByRole('heading', { level: 1, name: `Journey part ${tag}` }).waitFor({ timeout: TIMEOUT });
    const price = shop.locator('main').getByText(/₹\s?1,?(299|499\.50)/).first();
    await price.waitFor({ timeout: TIMEOUT });
    if (/1,?299/.test((await price.textContent()) ?? '')) {
      shown = asked;
      break;
    }
    check(asked < 1_000, `a product page asked for ${asked} ms after the save still showed the old price`);
  }
  console.log(`    the storefront showed the new price on a page asked for ${shown} ms after the save`);

  step(`${width} px: stock received`);
  await field('Change').fill('5');
  await field('Reason').selectOption('received');
  await field('Note').fill(`Invoice ${tag}`);
  await page.getByRole('button', { name: 'Record' }).click();
  await page.getByText('3 → 8').waitFor({ timeout: TIMEOUT });
  await looksRight('the stock history');

  step(`${width} px: an offer for a customer, who sees the discount on /review`);
  await page.goto(`${base}/admin/customers`);
  await searchTable(page, 'Customers', customer.email);
  await page.getByRole('link', { name: customer.name }).first().click();
  await page.getByRole('heading', { level: 1, name: customer.name }).waitFor();
  await page.getByLabel('Discount (%)').fill('10');
  const endsOn = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date(Date.now() + 7 * 86_400_000));
  await page.getByLabel('Last day').fill(endsOn);
  await page.getByRole('button', { name: 'Set offer' }).click();
  await page.getByText(/10% off, \d+ more days/).first().waitFor({ timeout: TIMEOUT });
  await looksRight("the customer's page");
  // The customer, signed in, puts the part in the cart from its page and goes to the order review.
  const buyer = await browser.newContext({ viewport: VIEWPORTS.find((v) => v.width === width) });
  await buyer.addInitScript((token) => {
    if (!localStorage.getItem('token')) localStorage.setItem('token', token);
  }, customer.token);
  const cart = await buyer.newPage();
  await toReview(cart, base, productId);
  await cart.getByText('Discount (10%)').waitFor({ timeout: TIMEOUT });
  await buyer.close();

  step(`${width} px: the audit trail holds every one of those writes, by the owner, on those records`);
  await page.goto(`${base}/admin/audit`);
  await page.getByRole('heading', { level: 1, name: 'Audit trail' }).waitFor();
  /** The trail's row of `action` holding `text` (a record's name in its values), with the owner as its author. */
  const entry = async (action, text) => {
    await page.getByRole('combobox', { name: 'What' }).selectOption(action);
    // (On a phone each cell's name starts with its column's, drawn before it: the action is found by its text.)
    const row = page.getByRole('row').filter({ has: page.getByText(action, { exact: true }) }).filter({ hasText: text });
    await row.first().waitFor({ timeout: TIMEOUT });
    check(await row.first().getByText(OWNER.email).isVisible(), `${action} on ${text}: not the owner's`);
  };
  await entry('category.create', `Journey ${tag}`);
  await entry('category.update', `Sub ${tag}`);
  await searchTable(page, 'Audit trail', `product:${productId}`);
  await page.waitForURL((url) => url.searchParams.get('subject') === `product:${productId}`);
  await entry('product.create', partNo);
  await entry('photo.add', `product:${productId}`);
  await entry('product.update', '1299');
  await entry('stock.adjust', `Invoice ${tag}`);
  await searchTable(page, 'Audit trail', `customer:${customer.id}`);
  await page.waitForURL((url) => url.searchParams.get('subject') === `customer:${customer.id}`);
  await entry('offer.set', endsOn);
  await looksRight('the audit trail');
  await shop.close();
  await page.close();
  return productId;
}

/** Reads one import job's page until its state line says `state` (the page reads the job again every second). */
async function importEnds(page, state) {
  const status = page.getByRole('status').filter({ hasText: /rows|Waiting|Running|Done|Failed|Stopped/ }).first();
  await status.filter({ hasText: state }).waitFor({ timeout: 60_000 });
  return (await status.textContent()) ?? '';
}

/** Uploads `csv` as `name` on the import page with the mode's label, and waits for its job's page. */
async function uploadImport(page, base, name, csv, modeLabel) {
  await page.goto(`${base}/admin/imports`);
  await page.getByLabel('CSV file', { exact: true }).setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
  await page.getByRole('radio', { name: modeLabel }).check();
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await page.waitForURL((url) => /^\/admin\/imports\/[^/]+$/.test(url.pathname), { timeout: TIMEOUT });
}

async function catalogMemberImports(base, page) {
  step('the catalog member exports the catalog, then checks a file of five new parts with three bad rows');
  await page.goto(`${base}/admin`);
  await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Import and export' }).click();
  await page.getByRole('heading', { level: 1, name: 'Import and export' }).waitFor({ timeout: TIMEOUT });
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download products.csv' }).click()]);
  const exported = Papa.parse(readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true });
  check(exported.data.length > 0, 'the export has no product');
  const template = exported.data[0];
  const tag = Date.now().toString(36).toUpperCase();
  const superseded = `OLD-${tag}-77`;
  const part = (n, over = {}) => ({
    ...template,
    sku: `JRN-IMP-${tag}-${n}`,
    name: `Imported journey part ${tag} ${n}`,
    partNo: `IMP${tag}${n}`,
    alternateNumbers: '',
    supersededNumbers: n === 1 ? superseded : '',
    photos: '',
    quantity: '4',
    published: 'true',
    ...over,
  });
  const good = [part(1), part(2)];
  const bad = [part(3, { price: '-1' }), part(4, { gst: '7' }), part(5, { category_slug: `no-such-category-${tag.toLowerCase()}` })];
  const columns = Object.keys(template);
  await uploadImport(page, base, 'journey-parts.csv', Papa.unparse([...good, ...bad], { columns }), 'Check only (dry run): write nothing');
  const checked = await importEnds(page, 'Done');
  console.log(`    dry run: ${checked}`);
  await page.getByRole('heading', { name: 'Refused rows (3)' }).waitFor({ timeout: TIMEOUT });
  const refusedLines = await page.getByRole('table').locator('tbody tr td:first-child').allTextContents();
  check(JSON.stringify([...new Set(refusedLines)].sort()) === JSON.stringify(['4', '5', '6']), `the report names lines ${refusedLines.join(', ')}, not 4, 5 and 6`);
  const [errorsFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download errors.csv' }).click()]);
  const errors = Papa.parse(readFileSync(await errorsFile.path(), 'utf8').replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true });
  const byLine = Object.fromEntries(errors.data.map((row) => [row.line, row.column]));
  check(byLine['4'] === 'price' && byLine['5'] === 'gst' && byLine['6'] === 'category_slug', `errors.csv names ${JSON.stringify(byLine)}`);
  const { total: before } = await json(base, `/api/get/productBySearch?search=${encodeURIComponent(superseded)}&page=1`);
  check(before === 0, 'the dry run wrote a product');

  step('the member fixes the three rows, applies the file and watches it finish; the storefront finds a part by its superseded number');
  const fixed = [part(3), part(4), part(5)];
  await uploadImport(page, base, 'journey-parts-fixed.csv', Papa.unparse([...good, ...fixed], { columns }), 'Apply: write the rows that pass');
  const applied = await importEnds(page, 'Done');
  console.log(`    apply: ${applied}`);
  const facts = await page.locator('dl.admin-facts').textContent();
  check(/New parts\s*5/.test(facts ?? ''), `the import did not create five parts: ${facts}`);
  const shop = await page.context().newPage();
  const loose = superseded.toLowerCase().replace(/-/g, ' ');
  await shop.goto(`${base}/search?search=${encodeURIComponent(loose)}&page=1`);
  await shop.getByRole('link', { name: new RegExp(`Imported journey part ${tag} 1`) }).first().waitFor({ timeout: TIMEOUT });
  await shop.close();
}

/** Invites a staff member of `role` as the owner, and signs them in in a browser context of their own; their page. */
async function invitedMember(base, context, ownerSecret, role, name) {
  const page = await context.newPage();
  await signIn(page, base, OWNER.email, OWNER.password, ownerSecret);
  await page.goto(`${base}/admin/staff`);
  const email = `${role}.${Date.now()}@journey.example.in`;
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Role', { exact: true }).selectOption(role);
  await page.getByRole('button', { name: 'Invite' }).click();
  const link = new URL((await page.locator('code.admin-secret').textContent({ timeout: TIMEOUT })) ?? '');
  await page.close();
  const member = await browser.newContext({ viewport: VIEWPORTS[0] });
  const memberPage = await member.newPage();
  const secret = await setUp(memberPage, base, `${link.pathname}${link.search}`, `${role} member passphrase`);
  await signIn(memberPage, base, email, `${role} member passphrase`, secret);
  return memberPage;
}

/** Opens order `number` from the Orders list of the back office. */
async function openOrder(page, number) {
  await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Orders', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor({ timeout: TIMEOUT });
  await searchTable(page, 'Orders', number);
  await page.getByRole('link', { name: number, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: number }).waitFor({ timeout: TIMEOUT });
}

async function fulfilmentShipsAndRefunds(base, context, ownerSecret, customer) {
  step('the customer pays for two more orders of two parts each; a fulfilment member the owner invited signs in');
  const { data: recent } = await json(base, '/api/get/new-products');
  const [a, b] = recent.filter((p) => p.quantity >= 3);
  check(Boolean(a && b), 'the demo catalog has fewer than two recent products with three in stock');
  const { user } = await json(base, '/api/user', { headers: { authorization: `Bearer ${customer.token}` } });
  const addressId = user.address?.[0]?._id;
  check(Boolean(addressId), 'the customer has no address');
  const lines = [
    { _id: a._id, quantity: 1 },
    { _id: b._id, quantity: 2 },
  ];
  // Both orders may carry the same second: which one is refunded is read from the history below.
  const paid = [await payFor(base, customer.token, addressId, lines), await payFor(base, customer.token, addressId, lines)];
  const history = await json(base, `/api/get/orderhistory/${encodeURIComponent(customer.id)}`, { headers: { authorization: `Bearer ${customer.token}` } });
  // Newest first: the two just paid for.
  const orders = history.result;
  check(orders.length >= 3, `the customer's history shows ${orders.length} orders`);
  const [refunded, shipped] = orders;
  const page = await invitedMember(base, context, ownerSecret, 'fulfilment', 'Fulfilment Member');
  check(!(await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Products', exact: true }).isVisible()), 'a fulfilment member sees Products');

  step('the member confirms, packs and ships one order with Blue Dart and an AWB');
  await openOrder(page, shipped.orderNumber);
  for (const move of ['Confirm', 'Mark packed']) {
    await page.getByRole('button', { name: move, exact: true }).click();
    await page.getByRole('heading', { level: 2, name: move === 'Confirm' ? 'Mark packed' : 'Ship' }).waitFor({ timeout: TIMEOUT });
  }
  const awb = `BD${Date.now() % 1_000_000_000}`;
  await page.getByLabel('Courier', { exact: true }).selectOption('bluedart');
  await page.getByLabel('AWB', { exact: true }).fill(awb);
  await page.getByRole('button', { name: 'Ship', exact: true }).click();
  await page.getByRole('link', { name: new RegExp(`Blue Dart ${awb}`) }).waitFor({ timeout: TIMEOUT });
  // The shipping notice, email and SMS, with the AWB: sent by the notice worker through the outbox.
  const mobile = user.mobile;
  let sent = [];
  for (let i = 0; i < 60 && sent.length < 2; i += 1) {
    if (i > 0) await new Promise((done) => setTimeout(done, 250));
    sent = (await outbox(base)).filter((m) => [customer.email, mobile].includes(m.recipient) && m.text.includes(awb));
  }
  check(
    sent.some((m) => m.recipient === customer.email) && sent.some((m) => m.recipient === mobile),
    `the outbox has no shipping email and SMS with ${awb} for ${customer.email} / ${mobile}: ${JSON.stringify(sent)}`,
  );
  console.log(`    shipped: ${sent.map((m) => `${m.channel} to ${m.recipient}`).join(', ')}`);
  // The courier's delivery, as staff record it: the last move.
  await page.getByRole('button', { name: 'Mark delivered', exact: true }).click();
  await page.getByRole('heading', { level: 2, name: 'Mark delivered' }).waitFor({ state: 'detached', timeout: TIMEOUT });

  step('the member refunds one unit of the other order with restock; the stock is back and the refund is done');
  const before = (await json(base, `/api/get/productById/${encodeURIComponent(b._id)}`)).data.quantity;
  await openOrder(page, refunded.orderNumber);
  const refundLine = page.getByRole('group', { name: b.name });
  await refundLine.getByLabel(/^Units to refund/).fill('1');
  await page.locator('#refund-reason').fill('Damaged in transit');
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  const note = page.getByRole('button', { name: /^Credit note CN\// });
  await note.waitFor({ timeout: TIMEOUT });
  const noteNumber = ((await note.textContent()) ?? '').replace('Credit note ', '').trim();
  const refundRow = page.getByRole('region', { name: 'Refunds' }).getByRole('listitem').first();
  check(/Refunded|Pending/.test((await refundRow.textContent()) ?? ''), `the refund reads ${await refundRow.textContent()}`);
  // The storefront's answers follow a stock change within a couple of seconds (its caches learn of it by polling).
  let after = before;
  for (let i = 0; i < 20 && after !== before + 1; i += 1) {
    await new Promise((done) => setTimeout(done, 250));
    after = (await json(base, `/api/get/productById/${encodeURIComponent(b._id)}`)).data.quantity;
  }
  check(after === before + 1, `the stock went from ${before} to ${after} within 5 s, not back by one`);
  // The payment provider (the sandbox, asked as the shop asks Razorpay) holds the refund.
  const sandboxAuth = { authorization: `Basic ${Buffer.from('rzp_test_MarqueSandbox:marque-sandbox-key-secret').toString('base64')}` };
  const refunds = [];
  for (const { paymentId } of paid) {
    const { items } = await json(base, `/sandbox/razorpay/v1/payments/${encodeURIComponent(paymentId)}/refunds`, { headers: sandboxAuth });
    refunds.push(...items.map((r) => ({ ...r, paymentId })));
  }
  // One unit of b, less its share of any order discount (the customer has an offer).
  check(
    refunds.length === 1 && refunds[0].amount > 0 && refunds[0].amount <= Math.round(b.price * 100),
    `the sandbox holds ${JSON.stringify(refunds)} for the two payments, not one refund of at most ₹${b.price}`,
  );
  console.log(`    the sandbox refunded ${refunds[0].amount} paise of ${refunds[0].paymentId}`);
  console.log(`    ${refunded.orderNumber}: ${noteNumber}; stock ${before} -> ${after}`);

  step("the customer's purchase history shows the courier, AWB and tracking link, and the credit note reads right");
  const shopper = await browser.newContext({ viewport: VIEWPORTS[1] });
  await shopper.addInitScript((token) => localStorage.setItem('token', token), customer.token);
  const orderPage = await shopper.newPage();
  await orderPage.goto(`${base}/orderhistory`);
  const shippedCard = orderPage.getByRole('article', { name: new RegExp(shipped.orderNumber) });
  await shippedCard.getByText(awb).waitFor({ timeout: TIMEOUT });
  check(await shippedCard.getByText('Blue Dart').first().isVisible(), 'the shipped order does not name Blue Dart');
  const track = shippedCard.getByRole('link', { name: /track/i });
  check((await track.getAttribute('href'))?.includes(awb), 'the tracking link does not carry the AWB');
  const refundedCard = orderPage.getByRole('article', { name: new RegExp(refunded.orderNumber) });
  const [download] = await Promise.all([orderPage.waitForEvent('download'), refundedCard.getByRole('button', { name: new RegExp(noteNumber) }).click()]);
  const saved = join(scratch, 'credit-note.pdf');
  await download.saveAs(saved);
  const text = execFileSync('pdftotext', ['-layout', saved, '-']).toString();
  check(text.includes(noteNumber) && text.includes(refunded.invoiceNumber), `the credit note PDF lacks ${noteNumber} or ${refunded.invoiceNumber}`);
  console.log(`    ${noteNumber} names ${refunded.invoiceNumber}`);

  step('the customer asks to return a part of the delivered order, with a photo, from Purchase History');
  await shippedCard.getByRole('button', { name: `Return ${a.name}`, exact: true }).click();
  const returnForm = shippedCard.getByRole('form', { name: `Return ${a.name}` });
  await returnForm.getByLabel('Units to return').selectOption('1');
  await returnForm.getByLabel('What is wrong with the part?').fill('The mounting lug arrived cracked.');
  await returnForm.getByLabel('Photos (up to 3)').setInputFiles(writePngIn(scratch, 'return-photo.png', [150, 90, 40], 96));
  await returnForm.getByRole('button', { name: 'ASK TO RETURN' }).click();
  await shippedCard.getByText('1 asked back: waiting for the shop').waitFor({ timeout: 60_000 });

  step('the member approves the return, receives the part and resolves it as store credit');
  await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Returns', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Returns' }).waitFor({ timeout: TIMEOUT });
  await page.getByRole('region', { name: 'Returns' }).getByRole('link', { name: shipped.orderNumber, exact: true }).first().click();
  await page.getByRole('heading', { level: 1, name: `${shipped.orderNumber} · ${a.name}` }).waitFor({ timeout: TIMEOUT });
  await page.getByRole('button', { name: 'Approve', exact: true }).click();
  await page.getByRole('button', { name: 'Part received', exact: true }).click();
  await page.getByLabel('Outcome', { exact: true }).selectOption('storeCredit');
  await page.getByRole('button', { name: 'Resolve', exact: true }).click();
  const outcome = page.getByText(/^Store credit \(valid 6 months\) · ₹/);
  await outcome.waitFor({ timeout: TIMEOUT });
  const credited = /₹\s?([\d,]+(?:\.\d+)?)/.exec((await outcome.textContent()) ?? '')?.[1] ?? '';
  check(credited !== '', `the resolved return names no amount: ${await outcome.textContent()}`);
  console.log(`    ${shipped.orderNumber}: store credit of ₹${credited}`);
  await page.context().close();

  step("the customer's profile shows the credit, and the next review page subtracts it from what the card pays");
  await orderPage.goto(`${base}/orderhistory`);
  await orderPage
    .getByRole('article', { name: new RegExp(shipped.orderNumber) })
    .getByText(/1 resolved/)
    .first()
    .waitFor({ timeout: TIMEOUT });
  await orderPage.goto(`${base}/profile`);
  const balance = orderPage.locator('.profile__store-credit');
  await balance.filter({ hasText: 'valid until' }).waitFor({ timeout: TIMEOUT });
  check(((await balance.textContent()) ?? '').includes(credited), `the profile's store credit reads "${await balance.textContent()}", not ₹${credited}`);
  await toReview(orderPage, base, b._id);
  const amount = async (selector) => {
    const text = (await orderPage.locator(`${selector} dd`).textContent({ timeout: TIMEOUT })) ?? '';
    return Math.round(Number(text.replace(/[^\d.]/g, '')) * 100);
  };
  await orderPage.getByText('Store credit', { exact: true }).waitFor({ timeout: TIMEOUT });
  const [total, credit, card] = [await amount('.review__total'), await amount('.review__credit'), await amount('.review__card')];
  const balancePaise = Math.round(Number(credited.replace(/,/g, '')) * 100);
  check(credit === Math.min(balancePaise, total), `the review subtracts ₹${credit / 100} of a ₹${credited} credit from ₹${total / 100}`);
  check(card === total - credit, `the review asks the card for ₹${card / 100}, not ₹${(total - credit) / 100}`);
  console.log(`    review: total ₹${total / 100} − store credit ₹${credit / 100} = ₹${card / 100} by card`);
  await shopper.close();
}

async function catalogMemberIsRefusedOffers(base, context, ownerSecret, customerId) {
  const page = await context.newPage();
  step('the owner invites a catalog member; the member sets up, signs in, and is refused the customers and offers');
  await signIn(page, base, OWNER.email, OWNER.password, ownerSecret);
  await page.goto(`${base}/admin/staff`);
  const email = `catalog.${Date.now()}@journey.example.in`;
  await page.getByLabel('Name', { exact: true }).fill('Catalog Member');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Role', { exact: true }).selectOption('catalog');
  await page.getByRole('button', { name: 'Invite' }).click();
  const link = new URL((await page.locator('code.admin-secret').textContent({ timeout: TIMEOUT })) ?? '');
  const member = await browser.newContext({ viewport: VIEWPORTS[0] });
  const memberPage = await member.newPage();
  const secret = await setUp(memberPage, base, `${link.pathname}${link.search}`, 'catalog member passphrase');
  await signIn(memberPage, base, email, 'catalog member passphrase', secret);
  check(!(await memberPage.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Customers' }).isVisible()), 'a catalog member sees Customers');
  await memberPage.goto(`${base}/admin/customers/${encodeURIComponent(customerId)}`);
  await memberPage.getByRole('heading', { name: 'Not for your role' }).waitFor({ timeout: TIMEOUT });
  const token = await memberPage.evaluate(() => localStorage.getItem('staffToken'));
  const refused = await fetch(`${base}/api/admin/customers/${encodeURIComponent(customerId)}/offer`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ percentage: 50, endsOn: '2030-01-01' }),
  });
  check(refused.status === 403, `the server let a catalog member set an offer (${refused.status})`);
  await catalogMemberImports(base, memberPage);
  await member.close();
}

try {
  step('the owner is added by the CLI on the stopped embedded database');
  const ownerLink = await cliAddStaff(OWNER.email, OWNER.name, 'owner');
  console.log(`    set-up link ${ownerLink.replace(/code=.*/, 'code=…')}`);

  step('start the server on that database');
  const started = await startServer(join(scratch, 'data'), { MARQUE_DB: db });
  stopServer = started.stop;
  const base = started.base;

  step('admin pages are the shell kept out of search indexes; a storefront page loads nothing of the admin');
  const login = await (await fetch(`${base}/admin/login`)).text();
  check(login.includes('<meta name="robots" content="noindex">'), '/admin/login is not noindex');
  browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: BROWSER_ARGS });
  const problems = [];
  const visitor = await browser.newContext({ viewport: VIEWPORTS[0] });
  await watchCsp(visitor, problems);
  const home = await visitor.newPage();
  const scripts = [];
  home.on('request', (request) => scripts.push(request.url()));
  await home.goto(`${base}/`);
  await home.waitForLoadState('networkidle');
  check(!scripts.some((url) => url.includes('/remotes/admin/')), 'the home page loaded the admin remote');
  await home.goto(`${base}/admin/login`);
  await home.getByRole('heading', { name: 'Back office sign-in' }).waitFor({ timeout: TIMEOUT });
  await visitor.close();

  step('the owner sets a password and enrols the authenticator (QR code and secret)');
  const setup = await browser.newContext({ viewport: VIEWPORTS[0] });
  const ownerSecret = await setUp(await setup.newPage(), base, ownerLink, OWNER.password);
  await setup.close();

  step('a customer with an address, through the API');
  const { data: recent } = await json(base, '/api/get/new-products');
  const [wished, bought] = recent.filter((p) => p.quantity >= 2);
  check(Boolean(wished && bought), 'the demo catalog has fewer than two recent products in stock');
  const token = await prepareCustomer(base, wished._id, bought._id);
  const { user } = await json(base, '/api/user', { headers: { authorization: `Bearer ${token}` } });
  const customer = { token, email: user.email, name: user.name, id: user._id };

  for (const viewport of VIEWPORTS) {
    const context = await browser.newContext({ viewport });
    await watchCsp(context, problems);
    context.on('page', (page) => page.on('pageerror', (error) => problems.push(`page error at ${page.url()}: ${error.message}`)));
    const shifts = await recordLayoutShifts(context);
    await journey(base, context, shifts, viewport.width, ownerSecret, customer);
    if (viewport.width === 1280) {
      await catalogMemberIsRefusedOffers(base, context, ownerSecret, customer.id);
      await fulfilmentShipsAndRefunds(base, context, ownerSecret, customer);
    }
    await context.close();
  }
  check(problems.length === 0, problems.join('\n'));
  console.log('admin journey: every step passed');
} catch (error) {
  console.error(`admin journey failed at step ${stepNumber()}: ${error.message}`);
  if (process.env.ADMIN_JOURNEY_SHOTS) {
    for (const [n, page] of (browser?.contexts() ?? []).flatMap((c) => c.pages()).entries()) {
      await page.screenshot({ path: `${process.env.ADMIN_JOURNEY_SHOTS}/failure-${n}.png`, fullPage: true }).catch(() => {});
    }
  }
  process.exitCode = 1;
} finally {
  await browser?.close();
  await stopServer();
  rmSync(scratch, { recursive: true, force: true });
}
