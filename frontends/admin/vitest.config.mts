import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: '@marque/admin',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    // Forms with many fields are typed key by key; a busy machine needs more than the default 5 s.
    testTimeout: 20_000,
    setupFiles: [
      fileURLToPath(new URL('../test/setup.ts', import.meta.url)),
      fileURLToPath(new URL('./src/test/setup.ts', import.meta.url)),
    ],
  },
});
