// My garage at 360 px against the real server and the built frontends (issue 25), in Debian's chromium: the
// header's garage button opens the panel, a car of a product's fitment is chosen make → model → generation → engine
// → year, the product page says it fits, a product without fitment offers to ask, one for another car says it does
// not fit, and the search's car chip puts `fits` in the address and the call. No page may shift or scroll sideways.
// The demo catalog gives every product fitment, so the "not listed" check is skipped there (and says so); Vitest
// covers that verdict. Then the "Must show" (garage-must-show.mjs): the X5 G05 3.0d in the garage, a category
// narrowed to it, a used part found by its superseded number, bought, and its invoice's margin-scheme line. The
// server runs on an embedded database written first by `marque-server seed` and `import-csv`. A line of
// `make test-journey`. Exits non-zero on any failure.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { mustShow, prepareShop } from './garage-must-show.mjs';
import { BROWSER_ARGS, chromiumPath, check, noHorizontalScroll, recordLayoutShifts, serverBin, startServer, steps } from './harness.mjs';

const TIMEOUT = 15_000;
const scratch = mkdtempSync(join(tmpdir(), 'marque-garage-'));
const db = `surrealkv://${join(scratch, 'db')}`;
let stopServer = async () => {};
let browser;
const { step, at: stepNumber } = steps('garage');

async function getJson(url) {
  const response = await fetch(url);
  check(response.ok, `${url} answered ${response.status}`);
  return response.json();
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Products of the catalog's first search pages with their fitment (the product's own answer carries it). */
async function productsWithFitment(base) {
  const found = [];
  for (let page = 1; page <= 3; page += 1) {
    const { results } = await getJson(`${base}/api/get/productBySearch?search=&page=${page}`);
    for (const { _id } of results) {
      const { data } = await getJson(`${base}/api/get/productById/${encodeURIComponent(_id)}`);
      found.push(data);
    }
  }
  return found;
}

async function main() {
  step('the demo catalog (marque-server seed) and a used part (marque-server import-csv) on the embedded database');
  prepareShop(db, join(scratch, 'data'), scratch);

  step(`start ${serverBin} on that database`);
  const started = await startServer(join(scratch, 'data'), { MARQUE_DB: db });
  stopServer = started.stop;
  const base = started.base;
  let health = await fetch(`${base}/api/health`);
  for (let tries = 0; health.status === 503 && tries < 300; tries += 1) {
    await new Promise((done) => setTimeout(done, 200));
    health = await fetch(`${base}/api/health`);
  }
  check(health.status === 200, `/api/health answered ${health.status}`);

  step('find a product with fitment, one without, and the vehicle to choose');
  const products = await productsWithFitment(base);
  const fitting = products.find((p) => (p.fits ?? []).length > 0);
  check(fitting, 'no product of the first search pages has a fitment (the demo seed gives some)');
  const row = fitting.fits[0];
  const { vehicles } = await getJson(`${base}/api/get/vehicles?generation=${encodeURIComponent(row.generationId)}`);
  const vehicle = vehicles.find((v) => (row.vehicleId ? v.id === row.vehicleId : true));
  check(vehicle, `the vehicle table has no vehicle of ${row.generationId}`);
  const year = vehicle.years.to ?? vehicle.years.from;
  const car = `${row.model} (${row.generation}) ${vehicle.engine}`;
  console.log(`    ${fitting._id} fits ${row.make} ${car}; choosing ${vehicle.id}, ${year}`);
  const unlisted = products.find((p) => (p.fits ?? []).length === 0);
  const other = products.find((p) => (p.fits ?? []).length > 0 && p.fits.every((f) => f.generationId !== row.generationId));

  step(`launch ${chromiumPath} at 360×740`);
  browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: BROWSER_ARGS });
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
  const shifts = await recordLayoutShifts(context);
  const problems = [];
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.setDefaultTimeout(TIMEOUT);

  step('the header has a garage button beside the search box, and the page stays still');
  await page.goto(`${base}/`);
  const button = page.getByRole('button', { name: 'My garage', exact: true });
  await button.waitFor();
  const [buttonBox, searchBox] = [await button.boundingBox(), await page.locator('.search-box').boundingBox()];
  check(buttonBox && searchBox && Math.abs(buttonBox.y - searchBox.y) < 1, 'the garage button is not on the search box row');
  await page.waitForLoadState('networkidle');
  await noHorizontalScroll(page, 'home');
  await shifts.flush(page);
  shifts.check('home');

  step(`choose ${row.make} → ${row.model} → ${row.generation} → ${vehicle.engine} → ${year} in the garage panel`);
  await button.click();
  const dialog = page.getByRole('dialog', { name: 'My garage' });
  await dialog.waitFor();
  const list = dialog.locator('.vehicle-picker__list');
  await list.getByRole('button', { name: row.make, exact: true }).click();
  await list.getByRole('button', { name: row.model, exact: true }).click();
  await list.getByRole('button', { name: new RegExp(`^${escape(row.generation)} · `) }).click();
  await list.getByRole('button', { name: new RegExp(`^${escape(vehicle.engine)} · .* · ${escape(vehicle.engineCode)} · `) }).click();
  await dialog.getByLabel('Model year (optional)').selectOption(String(year));
  await noHorizontalScroll(page, 'the garage panel');
  await dialog.getByRole('button', { name: 'Save car' }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: `My garage: ${car}` }).waitFor();
  const stored = JSON.parse((await page.evaluate(() => localStorage.getItem('garage'))) ?? 'null');
  check(stored?.current === vehicle.id, `the garage stored ${JSON.stringify(stored)}`);

  step(`the product ${fitting._id} says it fits, and lists what it fits`);
  await page.goto(`${base}/product?productId=${encodeURIComponent(fitting._id)}`);
  await page.getByText(new RegExp(`^Fits your ${escape(car)}`)).waitFor();
  await page.getByRole('heading', { name: 'Fits these cars' }).waitFor();
  await noHorizontalScroll(page, 'product');
  await shifts.flush(page);
  shifts.check('product');

  if (unlisted) {
    step(`the product ${unlisted._id} lists no fitment and offers to ask`);
    await page.goto(`${base}/product?productId=${encodeURIComponent(unlisted._id)}`);
    await page.getByRole('link', { name: 'Fitment not listed – ask us' }).waitFor();
  } else {
    console.log('    SKIPPED: every product of the first search pages has a fitment');
  }
  if (other) {
    step(`the product ${other._id} fits another car: it says so`);
    await page.goto(`${base}/product?productId=${encodeURIComponent(other._id)}`);
    await page.getByText(`Does not fit your car: ${car}`).waitFor();
  } else {
    console.log(`    SKIPPED: no product of the first search pages fits only another generation than ${row.generationId}`);
  }

  step('the search narrows to the car with its chip, in the address and the call, and the chip takes it away');
  await page.goto(`${base}/search?search=&page=1`);
  const asked = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/get/productBySearch') asked.push(new URL(request.url()).search);
  });
  await page.getByRole('button', { name: `Only parts for my ${car}` }).click();
  await page.waitForURL((url) => url.searchParams.get('fits') === vehicle.id && url.searchParams.get('year') === String(year));
  await page.locator('article.product-card').first().waitFor();
  check(asked.some((query) => query.includes(`fits=${encodeURIComponent(vehicle.id)}`)), `the search asked ${asked.join(', ')}`);
  await page.getByRole('button', { name: `Remove ${row.make} ${car} ${year}` }).click();
  await page.waitForURL((url) => !url.searchParams.has('fits'));
  await noHorizontalScroll(page, 'search');
  await shifts.flush(page);
  shifts.check('search');

  await mustShow({ browser, base, scratch, step, problems });

  if (problems.length > 0) throw new Error(problems.join('\n'));
  console.log('PASS: the garage at 360 px');
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
