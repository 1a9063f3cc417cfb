import { defineConfig } from 'vitest/config';

// The catalogue checks read files and parse sources: they run in Node, not in a browser-like DOM.
export default defineConfig({
  test: {
    name: '@marque/i18n',
    environment: 'node',
    include: ['src/**/*.test.{ts,tsx}'],
  },
});
