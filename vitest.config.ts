import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Once per run: the one line about ../shared, and the CLI bundle built when stale.
    globalSetup: ['test/global-setup.ts'],
    // A hang-catcher, not a speed check: generous enough for a 2-core machine other work keeps busy
    // (speed is measured by bench/, never by tests).
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
