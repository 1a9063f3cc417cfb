// What the browser journeys share: where the server, the built frontends and chromium are, the browser's flags,
// and a server started on a free port with a fresh in-memory database (stopped by the journey).
//
// Environment: MARQUE_SERVER_BIN (default $CARGO_TARGET_DIR/debug/marque-server), MARQUE_WEB_DIR (default: frontends/),
//              CHROMIUM_PATH (default /usr/bin/chromium).
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const webDir = process.env.MARQUE_WEB_DIR ?? resolve(dirname(fileURLToPath(import.meta.url)), '..');
const targetDir = process.env.CARGO_TARGET_DIR ?? join(process.env.HOME ?? '/root', '.cache/marque-target');
export const serverBin = process.env.MARQUE_SERVER_BIN ?? join(targetDir, 'debug/marque-server');
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless chromium on a machine whose network is closed: no background traffic, no first-run work. */
export const BROWSER_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/**
 * Starts the server on a free port with a fresh in-memory database and its data under `dataDir`; `env` adds or
 * overrides settings (another `MARQUE_DB`, for instance).
 * Resolves with `{ base, stop }`: the base URL, and a function that stops the server (SIGTERM, then SIGKILL).
 */
export function startServer(dataDir, env = {}) {
  return new Promise((resolveStarted, reject) => {
    const child = spawn(serverBin, [], {
      env: {
        ...process.env,
        MARQUE_ADDR: '127.0.0.1:0',
        MARQUE_DB: 'mem://',
        MARQUE_DATA_DIR: dataDir,
        MARQUE_WEB_DIR: webDir,
        MARQUE_ENV: process.env.MARQUE_ENV ?? 'dev',
        // One client (loopback) signing up and browsing far more than a person: limits set for that.
        MARQUE_SIGNUPS_PER_HOUR: process.env.MARQUE_SIGNUPS_PER_HOUR ?? '10000',
        MARQUE_CODE_REQUESTS_PER_HOUR: process.env.MARQUE_CODE_REQUESTS_PER_HOUR ?? '10000',
        MARQUE_SIGN_INS_PER_HOUR: process.env.MARQUE_SIGN_INS_PER_HOUR ?? '10000',
        MARQUE_CATALOG_MISSES_PER_MINUTE: process.env.MARQUE_CATALOG_MISSES_PER_MINUTE ?? '100000',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stop = async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    };
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`server did not say "listening on" within 60 s\n${stderr}`)), 60_000);
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
      const found = /listening on (http:\/\/[^\s]+)/.exec(stdout);
      if (found) {
        clearTimeout(timer);
        resolveStarted({ base: found[1].replace(/\/$/, ''), stop });
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      stderr = (stderr + chunk).slice(-20_000);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot start ${serverBin}: ${error.message}`));
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited early (code ${code}, signal ${signal})\n${stderr}`));
    });
  });
}

/** Numbers and prints a journey's steps (`[checkout 3] text`); `at()` is the current one, for the failure message. */
export function steps(label = '') {
  let number = 0;
  return {
    step(text) {
      number += 1;
      console.log(`[${label ? `${label} ` : ''}${number}] ${text}`);
    },
    at: () => number,
  };
}

/** Fails the journey with `message` unless `condition` holds. */
export function check(condition, message) {
  if (!condition) throw new Error(message);
}

/** The most a page may shift while it loads and is used (its cumulative layout shift, input-led shifts excluded). */
/** Fails when `page` is wider than its window (it scrolls sideways), naming `where`. */
export async function noHorizontalScroll(page, where) {
  const [scrollWidth, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  check(scrollWidth <= width, `${where}: the page scrolls sideways (${scrollWidth}px wide in a ${width}px window)`);
}

export const LAYOUT_SHIFT_LIMIT = Number(process.env.LAYOUT_SHIFT_LIMIT ?? 0.05);

// Runs in every top-level document before the page's own scripts: each layout shift not caused by recent input is
// reported to the journey with the address the page shows at that moment (client-side navigations change it).
const LAYOUT_SHIFT_OBSERVER = `(() => {
  // The shop's own pages only: not frames inside them (the browser's PDF viewer, a payment window).
  if (window.top !== window || !location.protocol.startsWith('http')) return;
  const doc = Math.random().toString(36).slice(2);
  const describe = (node) => node && node.nodeType === 1
    ? node.nodeName.toLowerCase() + (node.id ? '#' + node.id : '') + (typeof node.className === 'string' && node.className ? '.' + node.className.trim().split(/\\s+/).join('.') : '')
    : node ? node.nodeName : '?';
  // Reports still on their way to the journey, and the flush that waits for them (see recordLayoutShifts).
  const sending = new Set();
  const report = (entries) => {
    for (const entry of entries) {
      if (entry.hadRecentInput || typeof window.__marqueLayoutShift !== 'function') continue;
      const sent = Promise.resolve(window.__marqueLayoutShift({
        doc,
        url: location.pathname + location.search,
        value: entry.value,
        sources: (entry.sources || []).slice(0, 3).map((s) => describe(s.node)),
      })).catch(() => {});
      sending.add(sent);
      sent.then(() => sending.delete(sent));
    }
  };
  try {
    const observer = new PerformanceObserver((list) => report(list.getEntries()));
    observer.observe({ type: 'layout-shift', buffered: true });
    window.__marqueFlushShifts = async () => {
      report(observer.takeRecords());
      await Promise.all([...sending]);
    };
  } catch (error) {
    // A browser without the Layout Instability API reports nothing.
  }
})();`;

/**
 * Records the layout shifts of every page of a browser context (PerformanceObserver `layout-shift`, shifts after
 * input left out), summed per document and address: a full load and each client-side page are counted apart.
 * `check(where)` throws when any page visited since the last check shifted more than LAYOUT_SHIFT_LIMIT, naming
 * the elements that moved; `pages()` lists what was recorded.
 */
export async function recordLayoutShifts(context) {
  const pages = new Map();
  await context.exposeBinding('__marqueLayoutShift', (_source, { doc, url, value, sources }) => {
    const key = `${doc} ${url}`;
    const page = pages.get(key) ?? { url, total: 0, shifts: [] };
    page.total += value;
    page.shifts.push(`${value.toFixed(3)} ${sources.join(', ')}`);
    pages.set(key, page);
  });
  await context.addInitScript(LAYOUT_SHIFT_OBSERVER);
  return {
    pages: () => [...pages.values()],
    /** Waits until every shift `page` has made so far has been recorded here: the page settled (images, two
     *  frames), then the observer's queue and the reports still on their way. Call it before `forget` or `check`,
     *  or a shift that happened before might be counted after. */
    async flush(page) {
      await settled(page);
      await page.evaluate(() => window.__marqueFlushShifts?.());
    },
    /** Forgets what was recorded, unchecked: after a change the visitor asked for whose result arrives later
     *  (another language: every text changes its length), where moving is what was asked for. */
    forget: () => pages.clear(),
    /** Fails on any page over the limit, then forgets what it checked. */
    check(where = '') {
      const over = [...pages.values()].filter((p) => p.total > LAYOUT_SHIFT_LIMIT);
      const worst = Math.max(0, ...[...pages.values()].map((p) => p.total));
      pages.clear();
      if (over.length > 0) {
        throw new Error(
          `${where ? `${where}: ` : ''}layout shift above ${LAYOUT_SHIFT_LIMIT}:\n` +
            over.map((p) => `  ${p.url}: ${p.total.toFixed(3)} (${p.shifts.join('; ')})`).join('\n'),
        );
      }
      return worst;
    },
  };
}

/** Waits until the page's images have loaded and two frames were drawn, so late shifts are seen before a check. */
export async function settled(page) {
  await page.evaluate(async () => {
    const pending = [...document.images].filter((image) => !image.complete && image.loading !== 'lazy');
    await Promise.race([
      Promise.all(
        pending.map(
          (image) =>
            new Promise((done) => {
              image.addEventListener('load', done, { once: true });
              image.addEventListener('error', done, { once: true });
            }),
        ),
      ),
      new Promise((done) => setTimeout(done, 3_000)),
    ]);
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  });
}

/**
 * Fails the journey on any Content-Security-Policy violation in `page` (or every page of a context): the browser's report
 * (a `securitypolicyviolation` event, seen by a script injected before the page's own) and its
 * console error both go into `problems`.
 */
export async function watchCsp(page, problems) {
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'} at ${event.sourceFile || ''}:${event.lineNumber}`);
    });
  });
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() === 'error' && (text.startsWith('CSP violation') || text.includes('Content Security Policy'))) {
      problems.push(`at ${message.page()?.url() ?? "?"}: ${text}`);
    }
  });
}
