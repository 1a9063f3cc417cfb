// Issue 25's "Must show", a step file of the garage journey (garage.mjs runs it after its own steps, at 360 px):
// a shopper adds a BMW X5 G05 3.0d to the garage, narrows a category to the parts that fit it, opens one that says it
// fits, finds a used part by its superseded number (the search card says "Supersedes …"), reads its grade and donor
// car, buys it through the sandbox payment, and reads the margin-scheme line of the invoice with pdftotext.
//
// Its data: the demo catalog written by `marque-server seed`, then the used part written by `marque-server import-csv`
// (the import's fits, crossReferences, grade, donor, marginScheme and purchasePrice columns) on the stopped embedded
// database, before the server starts on it.
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { check, noHorizontalScroll, recordLayoutShifts, serverBin } from './harness.mjs';
import { json, signedUpWithAddress } from './pages.mjs';

/** The car the issue names: the BMW X5 G05 3.0d (its engine's label as the vehicle table names it). */
export const X5 = { id: 'bmw-x5-g05.b57', make: 'BMW', model: 'X5', generation: 'G05', engine: '3.0d', engineCode: 'B57' };

/** The used unit the import writes: sold under the margin scheme, bought for ₹9,000, sold for ₹18,000. */
export const USED = {
  sku: 'JOURNEY-USED-ALT-1',
  name: 'BMW X5 Alternator (used unit)',
  partNo: '12 31 8 653 775',
  superseded: '12 31 7 823 346',
  category: 'electrical',
  subcategory: 'alternator',
};

const CSV =
  'sku,name,price,quantity,producttype,category_slug,subcategory_slug,oem_slug,partNo,supersededNumbers,fits,' +
  'crossReferences,grade,donorMake,donorModel,donorGeneration,donorYear,donorOdometerKm,marginScheme,purchasePrice,' +
  'inside_ncr,outside_ncr\r\n' +
  `${USED.sku},${USED.name},"₹18,000",1,old,${USED.category},${USED.subcategory},bmw,${USED.partNo},${USED.superseded},` +
  `${X5.id}:2019-:taken from a 2019 xDrive30d,Bosch:0 125 711 091,B,BMW,X5,G05,2019,84000,true,"9,000",250,600\r\n`;

/** Runs `marque-server ARGS` on the embedded database `db`; its output, or a failure with it. */
function cli(args, db, dataDir) {
  const run = spawnSync(serverBin, args, {
    env: { ...process.env, MARQUE_DB: db, MARQUE_DATA_DIR: dataDir, MARQUE_ENV: 'dev' },
    encoding: 'utf8',
    timeout: 300_000,
  });
  const out = `${run.stdout ?? ''}${run.stderr ?? ''}`;
  check(run.status === 0, `marque-server ${args.join(' ')}: exit ${run.status}\n${out.slice(-3_000)}`);
  return out;
}

/** The demo catalog and the journey's used part, written on the stopped embedded database `db`. */
export function prepareShop(db, dataDir, scratch) {
  cli(['seed'], db, dataDir);
  const file = join(scratch, 'used-part.csv');
  writeFileSync(file, CSV);
  const out = cli(['import-csv', file], db, dataDir);
  console.log(`    imported ${USED.sku}: ${out.trim().split('\n').pop()}`);
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The journey, in a fresh 360 px context of `browser` on the server at `base`. */
export async function mustShow({ browser, base, scratch, step, problems }) {
  const { vehicles } = await json(base, `/api/get/vehicles?generation=bmw-x5-g05`);
  const vehicle = vehicles.find((v) => v.id === X5.id);
  check(vehicle && vehicle.engine.startsWith(X5.engine), `the vehicle table's ${X5.id}: ${JSON.stringify(vehicle)}`);
  const X5_LABEL = `${X5.model} (${X5.generation}) ${vehicle.engine}`;

  step('a customer signs up (API) and opens the shop at 360 px');
  const { token } = await signedUpWithAddress(base, 'Garage Shopper', 'garage');
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, acceptDownloads: true });
  await context.addInitScript((t) => {
    if (!localStorage.getItem('token')) localStorage.setItem('token', t);
  }, token);
  const shifts = await recordLayoutShifts(context);
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.setDefaultTimeout(15_000);
  await page.goto(`${base}/`);

  step(`add the ${X5.make} ${X5_LABEL} to the garage (make → model → generation → engine)`);
  await page.getByRole('button', { name: 'My garage', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'My garage' });
  const list = dialog.locator('.vehicle-picker__list');
  await list.getByRole('button', { name: X5.make, exact: true }).click();
  await list.getByRole('button', { name: X5.model, exact: true }).click();
  await list.getByRole('button', { name: new RegExp(`^${X5.generation} · `) }).click();
  await list.getByRole('button', { name: new RegExp(`^${escape(vehicle.engine)} · .* · ${X5.engineCode} · `) }).click();
  await dialog.getByRole('button', { name: 'Save car' }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: `My garage: ${X5_LABEL}` }).waitFor();

  step(`narrow the ${USED.category} category to the parts that fit it`);
  const asked = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/get/product')) asked.push(`${url.pathname}${url.search}`);
  });
  await page.goto(`${base}/category/${USED.category}`);
  await page.getByRole('button', { name: `Only parts for my ${X5_LABEL}` }).click();
  await page.waitForURL((url) => url.searchParams.get('fits') === X5.id);
  const cards = page.locator('article.product-card');
  await cards.first().waitFor();
  check(asked.some((q) => q.startsWith(`/api/get/product/${USED.category}`) && q.includes(`fits=${X5.id}`)), `the listing asked ${asked.join(', ')}`);
  console.log(`    ${await cards.count()} parts of ${USED.category} fit the ${X5_LABEL} on the first page`);
  await noHorizontalScroll(page, 'the narrowed category');
  await shifts.flush(page);
  shifts.check('the narrowed category');

  step('open one of them: it says it fits');
  await cards.first().locator('.product-card__link').first().click();
  await page.waitForURL((url) => url.pathname === '/product');
  await page.getByText(new RegExp(`^Fits your ${escape(X5_LABEL)}`)).waitFor();

  step(`find the used part by its superseded number ${USED.superseded}, typed without spaces`);
  const typed = USED.superseded.replace(/\s/g, '');
  await page.locator('#part-search').fill(typed);
  await page.locator('#part-search').press('Enter');
  await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('search') === typed);
  const card = page.locator('article.product-card').filter({ hasText: USED.name });
  await card.waitFor();
  await card.getByText(`Supersedes ${USED.superseded}`).waitFor();
  await noHorizontalScroll(page, 'the search');

  step("its page: it fits, its grade with the shop's definition, and the donor car");
  await card.locator('.product-card__link').first().click();
  await page.waitForURL((url) => url.pathname === '/product');
  await page.getByRole('heading', { level: 1, name: USED.name }).waitFor();
  await page.getByText(new RegExp(`^Fits your ${escape(X5_LABEL)}`)).waitFor();
  await page.getByText('Grade B: normal wear for its age, fully working').waitFor();
  await page.getByText('BMW X5 (G05), 2019, 84,000 km').waitFor();
  await noHorizontalScroll(page, 'the used part');
  await shifts.flush(page);
  shifts.check('the used part');

  step('buy it: Buy now, the address, the review, the sandbox payment');
  await page.getByRole('button', { name: 'Buy now' }).click();
  await page.waitForURL((url) => url.pathname === '/address');
  const address = page.getByRole('radio', { name: /Janpath, New Delhi/ });
  await address.waitFor();
  if (!(await address.isChecked())) await address.check();
  await page.getByRole('button', { name: 'NEXT' }).click();
  await page.waitForURL((url) => url.pathname === '/review');
  await page.getByText(USED.name).first().waitFor();
  await page.getByRole('button', { name: 'Pay' }).click();
  const sandbox = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Success' }) });
  await sandbox.waitFor();
  const [confirmed] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === '/api/razorpay/success'),
    sandbox.getByRole('button', { name: 'Success' }).click(),
  ]);
  const placed = (await confirmed.json()).result;
  await page.getByRole('heading', { level: 1, name: 'Order Confirmed!' }).waitFor();

  step('the invoice (pdftotext): the used part taxed on its margin under rule 32(5)');
  await page.goto(`${base}/orderhistory`);
  const order = page.locator('.order-card').filter({ hasText: placed.invoiceNumber });
  await order.waitFor();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    order.getByRole('button', { name: 'DOWNLOAD INVOICE' }).click(),
  ]);
  const saved = join(scratch, 'garage-invoice.pdf');
  await download.saveAs(saved);
  const text = execFileSync('pdftotext', ['-layout', saved, '-']).toString();
  const flat = text.replace(/\s+/g, ' ');
  check(flat.includes(placed.invoiceNumber), `the invoice lacks ${placed.invoiceNumber}`);
  check(flat.includes(USED.name), `the invoice has no line of ${USED.name}:\n${text}`);
  check(flat.includes('Margin scheme – CGST Rules 32(5)'), `the invoice has no margin-scheme line:\n${text}`);
  check(/on margins/.test(flat), `the invoice's tax table has no margin row:\n${text}`);
  // ₹18,000 sold, ₹9,000 bought: the margin of ₹9,000 holds 18% GST, so its taxable value is ₹7,627.12.
  check(flat.includes('7,627.12'), `the margin's taxable value (7,627.12) is not on the invoice:\n${text}`);
  const at = flat.indexOf(USED.name);
  console.log(`    ${placed.invoiceNumber}: "${flat.slice(at, at + 140)}…"`);
  await context.close();
}
