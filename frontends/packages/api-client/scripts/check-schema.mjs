// Fails when src/schema.d.ts is not what openapi-typescript makes from contract/openapi.json today.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const contract = resolve(packageDir, '../../../contract/openapi.json');
const committed = join(packageDir, 'src/schema.d.ts');
const require = createRequire(import.meta.url);
const cli = join(dirname(require.resolve('openapi-typescript/package.json')), 'bin/cli.js');

const scratch = mkdtempSync(join(tmpdir(), 'marque-api-client-'));
try {
  const fresh = join(scratch, 'schema.d.ts');
  execFileSync(process.execPath, [cli, contract, '--output', fresh], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (readFileSync(fresh, 'utf8') !== readFileSync(committed, 'utf8')) {
    console.error(
      `packages/api-client/src/schema.d.ts is stale: it does not match ${contract}.\n` +
        'Run `npm run generate:api-client` in frontends/ and commit the result.',
    );
    process.exitCode = 1;
  } else {
    console.log('packages/api-client/src/schema.d.ts matches contract/openapi.json');
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
