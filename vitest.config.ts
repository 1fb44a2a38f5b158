import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Many tests run the CLI in a child process; on a busy 2-core CI machine one such test can take
    // several seconds. Timeouts catch hangs, not slowness (speed is measured by bench/, not by tests).
    testTimeout: 30_000,
  },
});
