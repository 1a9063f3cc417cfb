import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { BROWSER_ARGS, chromiumPath, startServer } from './harness.mjs';
const scratch = mkdtempSync(join(tmpdir(), 'marque-measure-'));
const { base, stop } = await startServer(join(scratch, 'data'));
const browser = await chromium.launchPersistentContext(join(scratch, 'profile'), { executablePath: chromiumPath, headless: true, args: BROWSER_ARGS, viewport: { width: 360, height: 740 } });
try {
  const page = await browser.newPage();
  const scripts = new Map(); const pending = [];
  page.on('pageerror', (e) => console.log('PAGE ERROR', e.message));
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') console.log('console', m.type(), m.text()); });
  page.on('response', (r) => { const p = new URL(r.url()).pathname; if (!/\.m?js$/.test(p) || r.status() !== 200) return; pending.push(r.body().then((b) => scripts.set(p, { raw: b.length, gz: gzipSync(b, { level: 9 }).length }), () => {})); });
  await page.goto(`${base}${process.argv[2] ?? '/'}`);
  await page.getByRole('heading', { name: 'Recently Added Products' }).waitFor({ timeout: 30000 });
  await page.waitForLoadState('networkidle');
  await Promise.all(pending);
  let total = 0; for (const [p, s] of [...scripts].sort((a, b) => b[1].gz - a[1].gz)) { total += s.gz; console.log(String(s.gz).padStart(7), String(s.raw).padStart(7), p); }
  console.log('TOTAL', total);
  if (process.env.SHOT) await page.screenshot({ path: process.env.SHOT, fullPage: false });
} finally { await browser.close(); await stop(); }
