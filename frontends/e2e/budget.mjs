// Every storefront page opened once as a first visit (a fresh browser context: empty cache) at Lighthouse's phone
// size, against the real server and the built frontends: the JavaScript it downloads (gzip -9, its remotes
// included) must stay within JS_BUDGET_BYTES, none of it the back office's remote, and its layout shift within
// LAYOUT_SHIFT_LIMIT (harness.mjs).
// Account and checkout pages are opened signed in (a customer prepared by pages.mjs). Nothing here is timed.
// Exits non-zero on any failure, page errors included.
//
// Environment: JS_BUDGET_BYTES (default 150000), and the paths of harness.mjs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { BROWSER_ARGS, chromiumPath, recordLayoutShifts, serverBin, startServer } from './harness.mjs';
import { storefrontPages } from './pages.mjs';

const budgetBytes = Number(process.env.JS_BUDGET_BYTES ?? 150_000);
const TIMEOUT = 15_000;
const scratch = mkdtempSync(join(tmpdir(), 'marque-budget-'));
let stopServer = async () => {};
let browser;

/** Records the JavaScript a page downloads: URL → gzip -9 size of the body. */
function recordScripts(page) {
  const scripts = new Map();
  const pending = [];
  page.on('response', (response) => {
    const isScript = response.request().resourceType() === 'script' || /\.m?js$/.test(new URL(response.url()).pathname);
    if (!isScript || response.status() !== 200) return;
    pending.push(
      response.body().then(
        (body) => scripts.set(response.url(), gzipSync(body, { level: 9 }).length),
        () => {},
      ),
    );
  });
  return async () => {
    await Promise.all(pending);
    return scripts;
  };
}

async function firstVisit(base, [name, path, ready], storage, problems) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
  try {
    if (storage) {
      await context.addInitScript((entries) => {
        for (const [key, value] of Object.entries(entries)) if (localStorage.getItem(key) === null) localStorage.setItem(key, value);
      }, storage);
    }
    const shifts = await recordLayoutShifts(context);
    const page = await context.newPage();
    page.setDefaultTimeout(TIMEOUT);
    page.on('pageerror', (error) => problems.push(`${name}: page error: ${error.message}`));
    const scriptsOf = recordScripts(page);
    await page.goto(`${base}${path}`);
    await page.locator(ready).first().waitFor();
    await page.waitForLoadState('networkidle');
    await shifts.flush(page);
    const scripts = await scriptsOf();
    const total = [...scripts.values()].reduce((sum, bytes) => sum + bytes, 0);
    const shift = Math.max(0, ...shifts.pages().map((p) => p.total));
    try {
      shifts.check(name);
    } catch (error) {
      problems.push(error.message);
    }
    const landed = new URL(page.url());
    console.log(
      `  ${name.padEnd(18)} ${String(total).padStart(7)} B gzip in ${String(scripts.size).padStart(2)} files, layout shift ${shift.toFixed(3)}` +
        (landed.pathname + landed.search !== path ? `  (now at ${landed.pathname})` : ''),
    );
    // The back office is its own remote, loaded on /admin pages only: no storefront page downloads any of it.
    const admin = [...scripts.keys()].filter((url) => new URL(url).pathname.startsWith('/remotes/admin/'));
    if (admin.length > 0) problems.push(`${name}: loaded the admin remote (${admin.map((url) => new URL(url).pathname).join(', ')})`);
    if (total > budgetBytes) {
      const files = [...scripts].sort((a, b) => b[1] - a[1]).map(([url, bytes]) => `    ${String(bytes).padStart(7)} ${new URL(url).pathname}`);
      problems.push(`${name}: first-load JavaScript is ${total} bytes gzip, over the ${budgetBytes}-byte budget\n${files.join('\n')}`);
    }
    return total;
  } finally {
    await context.close();
  }
}

let failed = false;
try {
  console.log(`[budget] start ${serverBin}`);
  const started = await startServer(join(scratch, 'data'));
  stopServer = started.stop;
  const base = started.base;
  const plan = await storefrontPages(base);
  browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: BROWSER_ARGS });
  const problems = [];
  console.log(`[budget] first visit of every page: JavaScript ≤ ${budgetBytes} B gzip, layout shift ≤ its limit`);
  let largest = 0;
  for (const entry of plan.visitor) largest = Math.max(largest, await firstVisit(base, entry, null, problems));
  for (const entry of plan.customer) largest = Math.max(largest, await firstVisit(base, entry, plan.storage, problems));
  if (problems.length > 0) throw new Error(problems.join('\n'));
  console.log(`PASS: ${plan.visitor.length + plan.customer.length} pages within budget; the heaviest ${largest} bytes gzip`);
} catch (error) {
  failed = true;
  console.error(`FAIL: ${error instanceof Error ? error.stack : error}`);
} finally {
  await browser?.close().catch(() => {});
  await stopServer().catch(() => {});
  rmSync(scratch, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
