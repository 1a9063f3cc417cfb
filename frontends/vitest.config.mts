// Runs every package's tests in one `vitest run`; each project brings its own settings.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*', 'shell', 'catalog', 'account', 'checkout', 'admin'],
  },
});
