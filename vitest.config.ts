import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Once per run: the one line about ../shared, and the CLI bundle built when stale.
    globalSetup: ['test/global-setup.ts'],
    // Two worker processes (one per core; the default) that keep their modules from one test file to
    // the next: measured on the 2-core machine, the suite took 4m11s this way and 5m57s with a fresh module
    // graph per file (most of the difference is loading src/ again for each of ~110 files). No test
    // file mocks modules or leaves global state changed, which is what isolation would guard against.
    pool: 'forks',
    isolate: false,
    // A hang-catcher, not a speed check: generous enough for a 2-core machine other work keeps busy
    // (speed is measured by bench/, never by tests).
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
