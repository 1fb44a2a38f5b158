import { defineConfig } from 'vitest/config';

/**
 * The suites that run other processes: the built CLI, JVMs (capture), npm (pack and install), tmux, Chromium.
 * They are the `processes` project, run by `npm run test:processes` (and by CI after `npm test`);
 * `npm test` runs the rest in process. test/helpers.test.ts fails when a test file that starts a
 * process is not listed here, so the split cannot drift.
 */
export const PROCESS_SUITES = [
  'test/cli/**/*.test.ts',
  'test/capture/capture.test.ts',
  'test/package/**/*.test.ts',
  'test/ui/e2e-tmux.test.ts',
  'test/report/html-browser.test.ts',
  'test/robustness/big-inputs.test.ts',
  'test/robustness/cli-fuzz.test.ts',
  'test/heap/hprof-structure-warnings.test.ts',
];

export default defineConfig({
  test: {
    // Once per run: the one line about ../shared, the run's scratch folder, and the CLI bundle built when stale.
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
    projects: [
      { extends: true, test: { name: 'in-process', include: ['test/**/*.test.{ts,tsx}'], exclude: PROCESS_SUITES } },
      { extends: true, test: { name: 'processes', include: PROCESS_SUITES } },
    ],
  },
});
