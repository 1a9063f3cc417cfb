// Issue 23's import and export figures through the admin API, as a `catalog` staff member added by
// `marque-server staff add` (set up with a password and TOTP, then signed in).
//
//   node bench/import.mjs <origin> <staff email> <set-up code> <server pid> STEP…
//
// STEP is one of
//   dry-run:FILE | apply:FILE   one job (`POST /api/admin/imports`), polled every 200 ms until it ends:
//                               one line with its counts, its time (upload to the end) and the
//                               server's RSS (highest seen during the job, and 5 s after it)
//   export                      `GET /api/admin/exports/products.csv` read to the end: time, bytes, rows
//   loop:FILE:FILE              apply the two files in turn until SIGTERM, then one line of what was
//                               done (bench/catalog.sh's BENCH_IMPORT regime)
//   photos:FILE:ZIP             an apply with a zip of photographs (bench/import-photos.sh): the rows'
//                               line, then the photographs' (processed after the rows by the background
//                               worker): their count, time from the rows' end, rate and RSS peak
import { openAsBlob, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { authed, json } from '../frontends/e2e/pages.mjs';
import { staffToken } from './staff.mjs';

const [origin, email, code, pidArg, ...steps] = process.argv.slice(2);
if (!origin || !email || !code || !pidArg || steps.length === 0) {
  console.error('usage: node bench/import.mjs <origin> <staff email> <set-up code> <server pid> STEP…');
  process.exit(2);
}
const pid = Number(pidArg);
const password = 'bench importer password 23';
const token = await staffToken(origin, email, code, password);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const rssMb = () => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Math.round(Number(line.split(/\s+/)[1]) / 1024);
};

// Parts the storefront lists (every published product, newest first: its `total`).
const listed = async () => (await json(origin, '/api/get/productBySearch?search=&page=1')).total;

async function job(mode, file, zip) {
  const before = await listed();
  const form = new FormData();
  form.append('mode', mode);
  form.append('file', await openAsBlob(file), basename(file));
  if (zip) form.append('photos', await openAsBlob(zip), basename(zip));
  const started = performance.now();
  let peak = rssMb();
  // The server's memory while the upload arrives, too (a zip may be hundreds of megabytes).
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb());
  }, 50);
  const response = await fetch(`${origin}/api/admin/imports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  }).finally(() => clearInterval(sampler));
  const created = await response.json();
  if (!response.ok) throw new Error(`POST /api/admin/imports: ${response.status} ${JSON.stringify(created)}`);
  for (;;) {
    await sleep(200);
    peak = Math.max(peak, rssMb());
    const state = await json(origin, `/api/admin/imports/${created.id}`, authed(token, 'GET'));
    if (!['queued', 'running'].includes(state.state)) {
      const seconds = (performance.now() - started) / 1000;
      // How long after the job ended the storefront lists every part it created (its last batch).
      const ended = performance.now();
      let lag = null;
      if (mode === 'apply' && state.created > 0) {
        while (performance.now() - ended < 30_000) {
          if ((await listed()) >= before + state.created) {
            lag = (performance.now() - ended) / 1000;
            break;
          }
          await sleep(50);
        }
      }
      return { ...state, id: created.id, seconds, peak, lag, ended };
    }
  }
}

function line(label, done) {
  const counts = ['rowsRead', 'accepted', 'rejected', 'created', 'updated', 'unchanged']
    .map((k) => `${k} ${done[k]}`)
    .join(', ');
  const lag = done.lag === null || done.lag === undefined ? '' : `; on the storefront ${done.lag.toFixed(2)} s after the end`;
  return `${label}: ${done.state} in ${done.seconds.toFixed(1)} s (${counts}; ${done.rowsPerSecond} rows/s${lag}) RSS peak ${done.peak} MB`;
}

for (const step of steps) {
  const [kind, ...files] = step.split(':');
  if (kind === 'dry-run' || kind === 'apply') {
    const done = await job(kind, files[0]);
    await sleep(5000);
    console.log(`${line(`${kind} ${basename(files[0])}`, done)}, ${rssMb()} MB 5 s after`);
  } else if (kind === 'photos') {
    const done = await job('apply', files[0], files[1]);
    console.log(line(`apply ${basename(files[0])} with ${basename(files[1])}`, done));
    // The photographs: polled until every one is processed or failed (at most 30 minutes).
    let peak = rssMb();
    let state = done;
    while (state.photosDone + state.photosFailed < state.photosTotal && performance.now() - done.ended < 1_800_000) {
      await sleep(200);
      peak = Math.max(peak, rssMb());
      state = await json(origin, `/api/admin/imports/${done.id}`, authed(token, 'GET'));
    }
    const seconds = (performance.now() - done.ended) / 1000;
    const over = state.photosDone + state.photosFailed;
    console.log(
      `photographs: ${state.photosDone} processed, ${state.photosFailed} failed of ${state.photosTotal} in ` +
        `${seconds.toFixed(1)} s after the rows (${(over / seconds).toFixed(2)} a second); RSS peak ${peak} MB`,
    );
  } else if (kind === 'export') {
    const started = performance.now();
    const response = await fetch(`${origin}/api/admin/exports/products.csv`, authed(token, 'GET'));
    if (!response.ok) throw new Error(`export: ${response.status}`);
    let bytes = 0;
    let rows = 0;
    for await (const chunk of response.body) {
      bytes += chunk.length;
      for (const b of chunk) if (b === 10) rows += 1;
    }
    const seconds = (performance.now() - started) / 1000;
    const encoding = response.headers.get('content-encoding') ?? 'none';
    console.log(
      `export: ${rows - 1} rows, ${(bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(1)} s ` +
        `(sent with content-encoding ${encoding}); RSS ${rssMb()} MB after`,
    );
  } else if (kind === 'loop') {
    // Stopped by a signal mid-job: what finished, and that one was under way.
    const done = [];
    const stop = () => {
      console.log(`imports finished while measured: ${done.length} (one more under way)\n${done.join('\n')}`);
      process.exit(0);
    };
    for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, stop);
    for (let n = 0; ; n += 1) {
      const file = files[n % files.length];
      done.push(line(`apply ${basename(file)}`, await job('apply', file)));
    }
  } else {
    throw new Error(`unknown step ${step}`);
  }
}
