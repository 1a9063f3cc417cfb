// ESLint over every package and remote (`npm run lint`, part of `npm test`): JavaScript's and typescript-eslint's
// recommended rules, and the import boundaries of ARCHITECTURE.md §6:
// - no remote imports another remote (they meet only at run time, through Module Federation), and no shared
//   package imports a remote;
// - inside a remote, no feature imports another feature, and the remote's shared folder (`src/lib`) imports no
//   feature: what two features share moves to `src/lib`.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const here = dirname(fileURLToPath(import.meta.url));
const REMOTES = ['shell', 'catalog', 'account', 'checkout', 'admin'];
const foldersIn = (path) =>
  readdirSync(join(here, path), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

const zones = [
  ...REMOTES.map((remote) => ({
    target: `./${remote}`,
    from: REMOTES.filter((other) => other !== remote).map((other) => `./${other}`),
    message: 'A remote never imports another remote: they meet at run time only (loadRemote, a shared package).',
  })),
  {
    target: './packages',
    from: REMOTES.map((remote) => `./${remote}`),
    message: 'A shared package never imports a remote.',
  },
  ...REMOTES.flatMap((remote) => [
    ...foldersIn(`${remote}/src/features`).map((feature) => ({
      target: `./${remote}/src/features/${feature}`,
      from: `./${remote}/src/features`,
      except: [`./${feature}`],
      message: `A feature never imports another feature: move what both need to ${remote}/src/lib.`,
    })),
    {
      target: `./${remote}/src/lib`,
      from: `./${remote}/src/features`,
      message: 'The shared folder never imports a feature.',
    },
  ]),
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'packages/api-client/src/schema.d.ts'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones }],
      // `_`-named bindings say "deliberately unused" (a skipped tuple element, a rest sibling).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
);
