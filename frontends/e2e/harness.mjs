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
 * Starts the server on a free port with a fresh in-memory database and its data under `dataDir`.
 * Resolves with `{ base, stop }`: the base URL, and a function that stops the server (SIGTERM, then SIGKILL).
 */
export function startServer(dataDir) {
  return new Promise((resolveStarted, reject) => {
    const child = spawn(serverBin, [], {
      env: {
        ...process.env,
        MARQUE_ADDR: '127.0.0.1:0',
        MARQUE_DB: 'mem://',
        MARQUE_DATA_DIR: dataDir,
        MARQUE_WEB_DIR: webDir,
        MARQUE_ENV: process.env.MARQUE_ENV ?? 'dev',
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
