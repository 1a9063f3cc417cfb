// A shopper's journey through the real server and the built frontends, in Debian's chromium: on a phone-sized
// screen home, search by a part number typed loosely, product detail, a car brand's page from the footer, and a
// broken catalog remote; then at 360 px and 1280 px the home filter bar, category and subcategory listings with
// their filters, breadcrumb, image viewer, search view toggle, Hindi and the announcement banner.
// Also measures the JavaScript the home page downloads (gzip -9). Exits non-zero on any failure.
//
// Environment: JS_BUDGET_BYTES (default 150000), and the paths of harness.mjs.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { BROWSER_ARGS, chromiumPath, check, noHorizontalScroll, recordLayoutShifts, serverBin, startServer, steps, watchCsp } from './harness.mjs';

const budgetBytes = Number(process.env.JS_BUDGET_BYTES ?? 150_000);

const HEADLINE = 'Marketplace for New & Used Spare Parts for Luxury Cars';
const locale = (language, ns) =>
  JSON.parse(readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), `../packages/i18n/src/locales/${language}/${ns}.json`), 'utf8'));
const HINDI_HEADLINE = locale('hi', 'home').headline;
const FALLBACK_TEXT = 'This part of the shop could not be loaded. Please try again.';
const TIMEOUT = 15_000;

const scratch = mkdtempSync(join(tmpdir(), 'marque-journey-'));
let stopServer = async () => {};
let browser;
const { step, at: stepNumber } = steps();


async function getJson(url) {
  const response = await fetch(url);
  check(response.ok, `${url} answered ${response.status}`);
  return response.json();
}

/** The same part number as a shopper might type it: lower case, separators moved (A 000 180 26 09 → a000-180 2609). */
function typedLoosely(partNo) {
  const compact = partNo.toLowerCase().replace(/[\s\-./]/g, '');
  if (compact.length < 6) return compact;
  return `${compact.slice(0, 4)}-${compact.slice(4, 7)} ${compact.slice(7)}`;
}

const rupees = (amount) =>
  new Intl.NumberFormat('en-IN', {
    style: 'currency',
    currency: 'INR',
    minimumFractionDigits: Number.isInteger(amount) ? 0 : 2,
    maximumFractionDigits: Number.isInteger(amount) ? 0 : 2,
  }).format(amount);

/** Records the JavaScript a page downloads: URL → gzip -9 size of the body. */
function recordScripts(page) {
  const scripts = new Map();
  const pending = [];
  page.on('response', (response) => {
    const request = response.request();
    const isScript = request.resourceType() === 'script' || /\.m?js(\?|$)/.test(new URL(response.url()).pathname);
    if (!isScript || response.status() !== 200) return;
    pending.push(
      response.body().then(
        (body) => scripts.set(response.url(), { bytes: body.length, gzip: gzipSync(body, { level: 9 }).length }),
        () => {},
      ),
    );
  });
  return async () => {
    await Promise.all(pending);
    return scripts;
  };
}

async function main() {
  step(`start ${serverBin}`);
  const started = await startServer(join(scratch, 'data'));
  stopServer = started.stop;
  const base = started.base;
  console.log(`    server at ${base}`);
  // Ready (200) once the server has warmed its catalog answers after its start: 503 `warming` until then.
  let health = await fetch(`${base}/api/health`);
  for (let tries = 0; health.status === 503 && tries < 300; tries += 1) {
    await new Promise((done) => setTimeout(done, 200));
    health = await fetch(`${base}/api/health`);
  }
  check(health.status === 200, `/api/health answered ${health.status}`);

  step(`launch ${chromiumPath} at 360×740`);
  browser = await chromium.launchPersistentContext(join(scratch, 'profile'), {
    executablePath: chromiumPath,
    headless: true,
    args: BROWSER_ARGS,
    viewport: { width: 360, height: 740 },
  });
  // Every page below must stay still as it loads: at most LAYOUT_SHIFT_LIMIT of layout shift each.
  const shifts = await recordLayoutShifts(browser);
  const problems = [];
  const page = await browser.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await watchCsp(page, problems);
  page.setDefaultTimeout(TIMEOUT);

  step('open home and see the headline');
  const scriptsOf = recordScripts(page);
  await page.goto(`${base}/`);
  await page.getByRole('heading', { level: 1, name: HEADLINE }).waitFor();
  await page.getByRole('heading', { name: 'Recently Added Products' }).waitFor();
  await page.waitForLoadState('networkidle');
  check((await page.title()) === 'Marque Parts', `home title is "${await page.title()}"`);
  await noHorizontalScroll(page, 'home');

  const scripts = await scriptsOf();
  const total = [...scripts.values()].reduce((sum, s) => sum + s.gzip, 0);
  console.log(`    home page JavaScript: ${scripts.size} files, ${(total / 1024).toFixed(1)} KiB gzip -9 (${total} bytes)`);
  for (const [url, size] of [...scripts].sort((a, b) => b[1].gzip - a[1].gzip)) {
    console.log(`      ${String(size.gzip).padStart(7)} B gzip  ${String(size.bytes).padStart(7)} B raw  ${new URL(url).pathname}`);
  }
  check(total <= budgetBytes, `home page JavaScript is ${total} bytes gzip, over the ${budgetBytes}-byte budget`);

  step('search for a real part number typed with other spaces and dashes');
  const { data: recent } = await getJson(`${base}/api/get/new-products`);
  const product = recent.find((p) => p.partNo && p.partNo.trim());
  check(product, 'no product in /api/get/new-products has a part number');
  const typed = typedLoosely(product.partNo);
  console.log(`    part number "${product.partNo}" typed as "${typed}"`);
  const box = page.getByPlaceholder('Enter Part Name / Number');
  await box.fill(typed);
  await box.press('Enter');
  await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('search') === typed && url.searchParams.get('page') === '1');
  await page.getByRole('heading', { level: 1, name: /Showing results for/ }).waitFor();
  const card = page.locator(`a[href="/product?productId=${encodeURIComponent(product._id)}"]`);
  await card.first().waitFor();
  console.log(`    ${await page.locator('article.product-card').count()} result(s)`);
  await noHorizontalScroll(page, 'search results');

  step('open the matching product and see its part number and price');
  await card.first().click();
  await page.waitForURL((url) => url.pathname === '/product' && url.searchParams.get('productId') === product._id);
  await page.getByRole('heading', { level: 1, name: product.name }).waitFor();
  const partNo = page.locator('.particulars__row', { hasText: 'Part No' });
  check((await partNo.locator('dd').textContent())?.trim() === product.partNo.trim(), 'the Part No shown is not the product\'s');
  await page.getByText(rupees(product.price), { exact: true }).first().waitFor();
  await page.getByText('inc. GST').first().waitFor();
  console.log(`    ${product.partNo}, ${rupees(product.price)} inc. GST`);
  await noHorizontalScroll(page, 'product detail');

  step("from home, open BMW from the footer: the brand page lists BMW's parts, and a card opens its product");
  await page.goto(`${base}/`);
  await page.getByRole('heading', { level: 1, name: HEADLINE }).waitFor();
  await page.getByRole('navigation', { name: 'Car brands' }).getByRole('link', { name: 'BMW', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/brand/bmw' && url.searchParams.get('page') === '1');
  await page.getByRole('heading', { level: 1, name: 'BMW Spare Parts' }).waitFor();
  const brandCards = page.locator('article.product-card');
  await brandCards.first().waitFor();
  check((await page.title()) === 'BMW Spare Parts - Marque Parts', `brand page title is "${await page.title()}"`);
  console.log(`    ${await brandCards.count()} BMW product card(s) on page 1`);
  await noHorizontalScroll(page, 'brand page');
  const brandCard = brandCards.first().locator('a.product-card__link');
  const brandProductId = new URL(await brandCard.getAttribute('href'), base).searchParams.get('productId');
  const { data: brandProduct } = await getJson(`${base}/api/get/productById/${encodeURIComponent(brandProductId)}`);
  check(brandProduct.oem_slug === 'bmw', `the brand page's first card is a ${brandProduct.oem} part`);
  await brandCard.click();
  await page.waitForURL((url) => url.pathname === '/product' && url.searchParams.get('productId') === brandProductId);
  await page.getByRole('heading', { level: 1, name: brandProduct.name }).waitFor();
  // Arrived from the brand page, so the breadcrumb is Home › brand › product.
  await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: brandProduct.oem }).waitFor();
  console.log(`    ${brandProduct.name}`);

  step('break the catalog remote: header, footer and the fallback still show');
  const broken = await browser.newPage();
  broken.setDefaultTimeout(TIMEOUT);
  await broken.route('**/remotes/catalog/**', (route) => route.abort());
  await broken.goto(`${base}/`);
  await broken.getByText(FALLBACK_TEXT).waitFor();
  await broken.getByPlaceholder('Enter Part Name / Number').waitFor();
  await broken.getByRole('navigation', { name: 'Car brands' }).waitFor();
  check(await broken.getByRole('contentinfo').isVisible(), 'the footer is not visible');

  step('bring the remote back: Try again loads the home page');
  await broken.unroute('**/remotes/catalog/**');
  await broken.getByRole('button', { name: 'Try again' }).click();
  await broken.getByRole('heading', { level: 1, name: HEADLINE }).waitFor();

  await shifts.flush(broken);
  await shifts.flush(page);
  shifts.check('360 px journey');
  await browser.close();
  browser = undefined;
  for (const viewport of [{ width: 360, height: 740 }, { width: 1280, height: 800 }]) {
    await browse(base, viewport, problems);
  }

  check(problems.length === 0, problems.join('\n'));
  console.log(`PASS: journey done; home page JavaScript ${total} bytes gzip`);
}

/** Opens the sidebar drawer when the screen is small enough to have one; returns whether it did. */
async function openFilters(page) {
  const button = page.getByRole('button', { name: /^Filters( \(\d+\))?$/ });
  if (!(await button.isVisible())) return false;
  await button.click();
  await page.getByRole('button', { name: 'Close filters' }).waitFor();
  return true;
}

/** Every browsing screen at one screen size, in a fresh browser profile (empty local storage). */
async function browse(base, viewport, problems) {
  const at = `${viewport.width} px`;
  step(`${at}: launch a fresh browser`);
  browser = await chromium.launchPersistentContext(join(scratch, `profile-${viewport.width}`), {
    executablePath: chromiumPath,
    headless: true,
    args: BROWSER_ARGS,
    viewport,
  });
  const shifts = await recordLayoutShifts(browser);
  const page = await browser.newPage();
  page.on('pageerror', (error) => problems.push(`${at}: page error: ${error.message}`));
  await watchCsp(page, problems);
  page.setDefaultTimeout(TIMEOUT);

  // A category with products, one of its subcategories and a product there, from the API.
  const { data: categories } = await getJson(`${base}/api/get/category`);
  let grouped;
  for (const category of categories) {
    const listing = await getJson(`${base}/api/get/product/${category.slug}`);
    if (listing.subcategory.some((group) => group.products.length > 0)) {
      grouped = listing;
      break;
    }
  }
  check(grouped, 'no category has products');
  const category = grouped.category;
  const sample = grouped.subcategory.find((group) => group.products.length > 0).products[0];

  step(`${at}: home filter bar: Search is disabled until a category is chosen, then opens the flat category list`);
  await page.goto(`${base}/`);
  const bar = page.getByRole('form', { name: 'Find parts for your car' });
  await bar.waitFor();
  const search = bar.getByRole('button', { name: 'Search' });
  check(await search.isDisabled(), 'Search is enabled before a category is chosen');
  check(await bar.getByLabel('Car brand').isDisabled(), 'the brand dropdown is enabled before a category is chosen');
  await bar.getByLabel('Category').selectOption(category.slug);
  await bar.getByLabel('Car brand').selectOption(sample.oem_slug);
  check(await search.isEnabled(), 'Search stays disabled after a category is chosen');
  await search.click();
  await page.waitForURL(
    (url) => url.pathname === `/category/${category.slug}` && url.searchParams.get('oem') === sample.oem_slug && url.searchParams.get('page') === '1',
  );
  await page.locator('article.product-card').first().waitFor();
  await noHorizontalScroll(page, `${at} category flat list`);
  console.log(`    ${category.name}, ${sample.oem}: ${await page.locator('article.product-card').count()} card(s)`);

  step(`${at}: Reset gives the grouped view; 'See all' opens a subcategory`);
  const drawer = await openFilters(page);
  await page.getByRole('button', { name: 'Reset' }).click();
  await page.waitForURL((url) => url.pathname === `/category/${category.slug}` && !url.searchParams.has('oem'));
  if (drawer) await page.getByRole('button', { name: 'Close filters' }).click();
  const seeAll = page.getByRole('link', { name: 'See all' }).first();
  await seeAll.waitFor();
  const subHref = await seeAll.getAttribute('href');
  await seeAll.click();
  await page.waitForURL((url) => url.pathname === new URL(subHref, base).pathname);
  await page.locator('article.product-card').first().waitFor();
  const subPath = new URL(page.url()).pathname;
  const [, , , subSlug] = subPath.split('/');
  const { results } = await getJson(`${base}/api/get/product/${category.slug}/${subSlug}`);
  const inSub = results[0];

  step(`${at}: two filters become chips; one chip removed, then Reset`);
  await openFilters(page);
  await page.getByRole('checkbox', { name: inSub.oem, exact: true }).check();
  await page.waitForURL((url) => url.searchParams.get('oem') === inSub.oem_slug && url.searchParams.get('page') === '1');
  const typeLabel = inSub.producttype === 'old' ? 'Old' : 'New';
  await page.getByRole('checkbox', { name: typeLabel, exact: true }).check();
  await page.waitForURL((url) => url.searchParams.has('product_type') && url.searchParams.get('oem') === inSub.oem_slug);
  await page.getByRole('button', { name: `Remove ${typeLabel}` }).click();
  await page.waitForURL((url) => !url.searchParams.has('product_type') && url.searchParams.get('oem') === inSub.oem_slug);
  await page.getByRole('button', { name: 'Reset' }).click();
  await page.waitForURL((url) => url.pathname === subPath && !url.searchParams.has('oem'));
  if (await page.getByRole('button', { name: 'Close filters' }).isVisible()) {
    await page.getByRole('button', { name: 'Close filters' }).click();
  }
  await noHorizontalScroll(page, `${at} subcategory`);

  step(`${at}: a product from the subcategory: breadcrumb Home › category › subcategory › product`);
  await page.locator('article.product-card a.product-card__link').first().click();
  await page.waitForURL((url) => url.pathname === '/product');
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
  await crumbs.getByRole('link', { name: category.name }).waitFor();
  check((await crumbs.getByRole('link').count()) >= 3, 'the breadcrumb lacks its category and subcategory links');
  await noHorizontalScroll(page, `${at} product`);

  step(`${at}: the full-screen viewer opens from the image and closes with Esc`);
  await page.getByRole('button', { name: /^Open image 1 of/ }).click();
  const viewer = page.getByRole('dialog');
  await viewer.waitFor();
  await page.keyboard.press('Escape');
  await viewer.waitFor({ state: 'detached' });

  step(`${at}: search results view${viewport.width >= 1024 ? ': list chosen, still list after a reload' : ': no list toggle on a phone'}`);
  await page.goto(`${base}/search?search=disc&page=1`);
  await page.locator('article.product-card').first().waitFor();
  const listButton = page.getByRole('button', { name: 'List view' });
  if (viewport.width >= 1024) {
    await listButton.click();
    await page.reload();
    await page.locator('article.product-card').first().waitFor();
    check((await listButton.getAttribute('aria-pressed')) === 'true', 'the list view was not remembered');
    check((await page.evaluate(() => localStorage.getItem('listView'))) === 'list', 'listView is not in local storage');
  } else {
    check(!(await listButton.isVisible()), 'the list toggle shows on a phone');
  }

  await shifts.flush(page);
  shifts.check(`${at} browsing`);
  step(`${at}: Hindi from the header, still Hindi after a reload`);
  await page.goto(`${base}/`);
  await page.getByLabel('Language').selectOption('hi');
  await page.getByRole('heading', { level: 1, name: HINDI_HEADLINE }).waitFor();
  await page.reload();
  await page.getByRole('heading', { level: 1, name: HINDI_HEADLINE }).waitFor();
  check((await page.evaluate(() => document.documentElement.lang)) === 'hi', '<html lang> is not hi');
  await page.getByLabel(locale('hi', 'shell')['language.label']).selectOption('en');
  await page.getByRole('heading', { level: 1, name: HEADLINE }).waitFor();
  // Every text changed its length twice, once the other language's texts had loaded: moving was asked for.
  await shifts.flush(page);
  shifts.forget();

  step(`${at}: the announcement, once closed, stays closed after a reload`);
  const closeAnnouncement = page.getByRole('button', { name: 'Close announcement' });
  await closeAnnouncement.click();
  await closeAnnouncement.waitFor({ state: 'detached' });
  await page.reload();
  await page.getByRole('heading', { level: 1, name: HEADLINE }).waitFor();
  check((await page.getByRole('button', { name: 'Close announcement' }).count()) === 0, 'the announcement came back');

  await shifts.flush(page);
  shifts.check(at);
  await browser.close();
  browser = undefined;
}

let failed = false;
try {
  await main();
} catch (error) {
  failed = true;
  console.error(`FAIL at step ${stepNumber()}: ${error instanceof Error ? error.stack : error}`);
} finally {
  await browser?.close().catch(() => {});
  await stopServer().catch(() => {});
  rmSync(scratch, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
