// Lighthouse (mobile, its default simulated throttling) on every storefront page, against a server started here
// with a fresh seeded catalog. Prints each page's four category scores and LCP, CLS and TBT.
//
//   node bench/lighthouse.mjs [runs=1]        (make bench-web builds what it needs first)
//
// Environment: MARQUE_SERVER_BIN (the release binary), MARQUE_WEB_DIR, CHROMIUM_PATH (see frontends/e2e/harness.mjs);
// LIGHTHOUSE_DIR, where `make lighthouse` installs Lighthouse 12.8.2 from tools/lighthouse (default ~/.cache/marque-lighthouse); PAGES, a comma-separated
// list of page names to measure only those; LIGHTHOUSE_JSON, a folder to keep each run's full report in.
//
// A customer is prepared through the API (frontends/e2e/pages.mjs: sign-up, a wishlist item, an address, one paid
// order through the sandbox) and its token put in the browser's local storage with a cart line, so the account
// and checkout pages are measured signed in (a page opened after that lets the session set its cookie). Before every
// run the browser's HTTP cache is cleared (a first visit); local storage and cookies are kept (`disableStorageReset`),
// which is what keeps the session.
//
// `product-photos` is a product page whose product has five 4000 × 3000 camera photographs, uploaded through the back
// office first (bench/photographed.mjs: the owner MARQUE_OWNER_EMAIL names signs in with TOTP and uploads them), so
// the storefront serves real photographs with their srcset, sizes, width and height (issue 21: performance ≥ 95,
// CLS ≤ 0.05).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BROWSER_ARGS, chromiumPath, serverBin, startServer } from '../frontends/e2e/harness.mjs';
import { json, storefrontPages } from '../frontends/e2e/pages.mjs';
import { BENCH_OWNER, photographProduct } from './photographed.mjs';

const runs = Math.max(1, Number(process.argv[2] ?? 1));
const lighthouseDir = process.env.LIGHTHOUSE_DIR ?? join(process.env.HOME ?? '/root', '.cache/marque-lighthouse');
const moduleOf = (name, file) => import(pathToFileURL(join(lighthouseDir, 'node_modules', name, file)).href);
const { default: lighthouse } = await moduleOf('lighthouse', 'core/index.js');
const { default: puppeteer } = await moduleOf('puppeteer-core', 'lib/esm/puppeteer/puppeteer-core.js');

const scratch = mkdtempSync(join(tmpdir(), 'marque-lighthouse-'));
let base;

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];

async function measure(browser, page, name, path) {
  const reports = [];
  for (let run = 0; run < runs; run += 1) {
    const cdp = await page.createCDPSession();
    await cdp.send('Network.clearBrowserCache');
    await cdp.detach();
    const result = await lighthouse(
      `${base}${path}`,
      { output: 'json', logLevel: 'error', disableStorageReset: true, onlyCategories: CATEGORIES },
      undefined,
      page,
    );
    const lhr = result.lhr;
    if (lhr.runtimeError) throw new Error(`${name}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    if (process.env.LIGHTHOUSE_JSON) {
      mkdirSync(process.env.LIGHTHOUSE_JSON, { recursive: true });
      writeFileSync(join(process.env.LIGHTHOUSE_JSON, `${name}-${run + 1}.json`), result.report);
    }
    reports.push({
      scores: Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)])),
      lcp: lhr.audits['largest-contentful-paint'].numericValue,
      cls: lhr.audits['cumulative-layout-shift'].numericValue,
      tbt: lhr.audits['total-blocking-time'].numericValue,
      finalUrl: lhr.finalDisplayedUrl,
    });
  }
  // The run with the median performance score stands for the page.
  reports.sort((a, b) => a.scores.performance - b.scores.performance);
  return reports[Math.floor(reports.length / 2)];
}

function row(name, r) {
  const s = r.scores;
  const moved = new URL(r.finalUrl).pathname;
  return [
    name.padEnd(18),
    String(s.performance).padStart(4),
    String(s.accessibility).padStart(5),
    String(s['best-practices']).padStart(4),
    String(s.seo).padStart(4),
    `${(r.lcp / 1000).toFixed(2)} s`.padStart(8),
    r.cls.toFixed(3).padStart(6),
    `${Math.round(r.tbt)} ms`.padStart(8),
    `  ${moved}`,
  ].join(' ');
}

let stop = async () => {};
let browser;
let failed = false;
try {
  process.env.MARQUE_OWNER_EMAIL ??= BENCH_OWNER;
  const started = await startServer(join(scratch, 'data'));
  stop = started.stop;
  base = started.base;
  console.log(`server ${serverBin} at ${base}; lighthouse from ${lighthouseDir}; ${runs} run(s) a page, the median shown`);
  const plan = await storefrontPages(base);
  const only = process.env.PAGES ? new Set(process.env.PAGES.split(',')) : null;
  const wanted = (list) => list.filter(([name]) => !only || only.has(name));

  browser = await puppeteer.launch({
    executablePath: chromiumPath,
    headless: true,
    userDataDir: join(scratch, 'profile'),
    args: BROWSER_ARGS.filter((a) => a !== '--headless'),
  });
  const page = await browser.newPage();
  console.log(`${'page'.padEnd(18)} perf  a11y   bp  seo      LCP    CLS      TBT   (final path)`);
  for (const [name, path] of wanted(plan.visitor)) console.log(row(name, await measure(browser, page, name, path)));
  if (wanted([['product-photos']]).length > 0) {
    // A product of the home page's newest ones that the other pages do not measure.
    const { data: recent } = await json(base, '/api/get/new-products');
    const photographed = recent[recent.length - 1];
    const path = await photographProduct(base, browser, photographed._id);
    console.log(row('product-photos', await measure(browser, page, 'product-photos', path)));
  }

  // Sign in: the session's token and a cart line in local storage, as the frontends keep them.
  await page.goto(`${base}/about`);
  await page.evaluate((storage) => {
    for (const [key, value] of Object.entries(storage)) localStorage.setItem(key, value);
  }, plan.storage);
  // Opened once more with the session stored, as a returning customer's browser is: the session then also sets its
  // cookie (the server writes a signed-in customer's first answers into the pages it asks for).
  await page.goto(`${base}/about`, { waitUntil: 'networkidle0' });
  for (const [name, path] of wanted(plan.customer)) console.log(row(name, await measure(browser, page, name, path)));
} catch (error) {
  failed = true;
  console.error(`FAIL: ${error instanceof Error ? error.stack : error}`);
} finally {
  await browser?.close().catch(() => {});
  await stop().catch(() => {});
  rmSync(scratch, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
