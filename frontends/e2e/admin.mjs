// The back office's journey through the real server and the built frontends, in Debian's chromium at 1280×800 and at
// 360×740 (the "Must show"): an owner set up by the CLI (`marque-server staff add`) opens the set-up link,
// chooses a password and enrols the authenticator (QR code and secret; the codes are computed here, RFC 6238), signs
// in with a TOTP code; creates a category, a subcategory and a product with three photographs; finds it on the
// storefront by its part number typed with spaces; changes its price and sees the storefront follow within a second;
// records stock received; sets an offer for a customer who then sees the discount on /review; reads all of it in the
// audit trail; and a `catalog` staff member the owner invited is refused the customers' offers.
// Before any of that, the admin pages are the shell with `noindex`, and a storefront page loads none of the admin.
// Exits non-zero on any failure, page errors included; the step it reached is printed.
//
// Environment: see harness.mjs.
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { BROWSER_ARGS, chromiumPath, check, serverBin, startServer, steps, watchCsp } from './harness.mjs';
import { json, prepareCustomer } from './pages.mjs';
import { writePngIn } from './png.mjs';

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

// ---- TOTP (RFC 6238: HMAC-SHA1, 30 s steps, 6 digits) -----------------------------------------------------------

function base32(secret) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of secret.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  const bytes = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(Number.parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

function totp(secret, step = Math.floor(Date.now() / 30_000)) {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', base32(secret)).update(counter).digest();
  const offset = mac[mac.length - 1] & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/** The next code no sign-in used yet: the server refuses a step's code twice (its replay guard). */
const usedSteps = new Set();
async function freshCode(secret) {
  for (;;) {
    const now = Math.floor(Date.now() / 30_000);
    if (!usedSteps.has(now)) {
      usedSteps.add(now);
      return totp(secret, now);
    }
    await new Promise((done) => setTimeout(done, 1_000));
  }
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
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Authenticator code').fill(await freshCode(secret));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === '/admin', { timeout: TIMEOUT });
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
}

async function journey(base, context, width, ownerSecret, customer) {
  const page = await context.newPage();
  const tag = `J${width}${Date.now() % 100000}`;
  const partNo = `${tag}X77A`;

  step(`${width} px: sign in with a TOTP code; the navigation shows every area of an owner`);
  await signIn(page, base, OWNER.email, OWNER.password, ownerSecret);
  for (const area of ['Products', 'Categories', 'Brands', 'Stock', 'Customers', 'Audit trail', 'Staff']) {
    check(await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: area }).isVisible(), `${area} missing from the owner's navigation`);
  }

  step(`${width} px: a category and a subcategory`);
  await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Categories' }).click();
  await page.getByLabel('Name').first().fill(`Journey ${tag}`);
  await page.getByRole('button', { name: 'Add category' }).click();
  const row = page.getByRole('row', { name: new RegExp(`Journey ${tag}`) });
  await row.waitFor({ timeout: TIMEOUT });
  await row.getByRole('button', { name: 'Add subcategory' }).click();
  await row.getByLabel('Name').fill(`Sub ${tag}`);
  await row.getByRole('button', { name: 'Add subcategory' }).click();
  await row.getByText(`Sub ${tag}`).waitFor({ timeout: TIMEOUT });

  step(`${width} px: a product in it with three photographs`);
  await page.goto(`${base}/admin/products/new`);
  await page.getByLabel('Name').fill(`Journey part ${tag}`);
  await page.getByLabel('Price (₹, GST included)').fill('1499.50');
  await page.getByLabel('Category').selectOption({ label: `Journey ${tag}` });
  await page.getByLabel('Subcategory').selectOption({ label: `Sub ${tag}` });
  await page.getByLabel('Brand').selectOption({ index: 1 });
  await page.getByLabel('Variant (models it fits)').fill('Swift 2018');
  await page.getByLabel('Part number').fill(partNo);
  await page.getByLabel('Shop SKU').fill(`SKU-${tag}`);
  await page.getByLabel('HSN code').fill('8708');
  await page.getByLabel('Weight (grams)').fill('900');
  await page.getByLabel('Length (mm)').fill('200');
  await page.getByLabel('Width (mm)').fill('150');
  await page.getByLabel('Height (mm)').fill('40');
  await page.getByLabel('Stock').fill('3');
  await page.getByRole('button', { name: 'Create product' }).click();
  await page.waitForURL((url) => /^\/admin\/products\/[^/]+$/.test(url.pathname) && !url.pathname.endsWith('/new'), { timeout: TIMEOUT });
  const productId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
  const photos = [[200, 30, 30], [30, 160, 60], [40, 60, 200]].map((colour, i) => writePngIn(scratch, `${tag}-${i}.png`, colour, 640));
  await page.getByLabel('Add photographs').setInputFiles(photos);
  await page.waitForFunction(() => document.querySelectorAll('.admin-photos img').length === 3, undefined, { timeout: 60_000 });

  step(`${width} px: the storefront finds it by its part number typed with spaces`);
  const shop = await context.newPage();
  const spaced = partNo.replace(/(.{3})/g, '$1 ').trim();
  await shop.goto(`${base}/search?search=${encodeURIComponent(spaced)}&page=1`);
  await shop.getByRole('link', { name: new RegExp(`Journey part ${tag}`) }).first().waitFor({ timeout: TIMEOUT });

  step(`${width} px: a new price, and the storefront follows within a second`);
  await page.getByLabel('Price (₹, GST included)').fill('1299');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByText('Saved.').waitFor({ timeout: TIMEOUT });
  const saved = Date.now();
  let shown = 0;
  for (;;) {
    await shop.goto(`${base}/product?productId=${encodeURIComponent(productId)}`);
    const price = await shop.locator('main').getByText(/₹\s?1,?299/).first().isVisible().catch(() => false);
    if (price) {
      shown = Date.now() - saved;
      break;
    }
    check(Date.now() - saved < 1_000, 'the product page did not show the new price within a second');
  }
  console.log(`    the storefront showed the new price ${shown} ms after the save`);

  step(`${width} px: stock received`);
  await page.getByLabel('Change').fill('5');
  await page.getByLabel('Reason').selectOption('received');
  await page.getByLabel('Note').fill(`Invoice ${tag}`);
  await page.getByRole('button', { name: 'Record' }).click();
  await page.getByText('3 → 8').waitFor({ timeout: TIMEOUT });

  step(`${width} px: an offer for a customer, who sees the discount on /review`);
  await page.goto(`${base}/admin/customers`);
  await page.getByRole('searchbox', { name: 'Search' }).fill(customer.email);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name: customer.name }).first().click();
  await page.getByLabel('Discount (%)').fill('10');
  const endsOn = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date(Date.now() + 7 * 86_400_000));
  await page.getByLabel('Last day').fill(endsOn);
  await page.getByRole('button', { name: 'Set offer' }).click();
  await page.getByText(/10% off, \d+ more days/).waitFor({ timeout: TIMEOUT });
  const buyer = await browser.newContext({ viewport: VIEWPORTS.find((v) => v.width === width) });
  await buyer.addInitScript(
    ([token, line]) => {
      if (!localStorage.getItem('token')) {
        localStorage.setItem('token', token);
        localStorage.setItem('products', JSON.stringify([line]));
      }
    },
    [customer.token, { _id: productId, quantity: 1 }],
  );
  const cart = await buyer.newPage();
  await cart.goto(`${base}/address`);
  await cart.getByRole('radio').first().check();
  await cart.getByRole('button', { name: 'NEXT' }).click();
  await cart.waitForURL((url) => url.pathname === '/review', { timeout: TIMEOUT });
  await cart.getByText('Discount (10%)').waitFor({ timeout: TIMEOUT });
  await buyer.close();

  step(`${width} px: the audit trail holds every one of those writes`);
  await page.goto(`${base}/admin/audit`);
  for (const action of ['category.create', 'product.create', 'photo.add', 'product.update', 'stock.adjust', 'offer.set']) {
    await page.getByRole('combobox', { name: 'What' }).selectOption(action);
    await page.getByRole('cell', { name: action }).first().waitFor({ timeout: TIMEOUT });
  }
  await shop.close();
  await page.close();
  return productId;
}

async function catalogMemberIsRefusedOffers(base, context, ownerSecret, customerId) {
  const page = await context.newPage();
  step('the owner invites a catalog member; the member sets up, signs in, and is refused the customers and offers');
  await signIn(page, base, OWNER.email, OWNER.password, ownerSecret);
  await page.goto(`${base}/admin/staff`);
  const email = `catalog.${Date.now()}@journey.example.in`;
  await page.getByLabel('Name').fill('Catalog Member');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Role').selectOption('catalog');
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
    await journey(base, context, viewport.width, ownerSecret, customer);
    if (viewport.width === 1280) await catalogMemberIsRefusedOffers(base, context, ownerSecret, customer.id);
    await context.close();
  }
  check(problems.length === 0, problems.join('\n'));
  console.log('admin journey: every step passed');
} catch (error) {
  console.error(`admin journey failed at step ${stepNumber()}: ${error.message}`);
  process.exitCode = 1;
} finally {
  await browser?.close();
  await stopServer();
  rmSync(scratch, { recursive: true, force: true });
}
