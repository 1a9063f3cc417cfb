// Runs every package's tests in one `vitest run`; each project brings its own settings.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Vitest's default is one worker less than the machine has cores: one file at a time on CI's two
    // cores (267 s there, against 183 s with a worker a core).
    maxWorkers: availableParallelism(),
    projects: ['packages/*', 'shell', 'catalog', 'account', 'checkout', 'admin'],
  },
});
