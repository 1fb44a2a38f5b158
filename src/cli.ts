#!/usr/bin/env node
/** The process around the CLI (src/cli-main.ts): its streams, environment and exit code. */
import { runCli, version } from './cli-main.js';
import { isClosedPipe } from './commands/output.js';

// A reader that closed the pipe (`| head`, quitting `less`) ends the output, not with a stack trace.
process.stdout.on('error', (e) => {
  if (!isClosedPipe(e)) throw e;
});

runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env, version }).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`internal error: ${String(e)}\n`);
    process.exitCode = 70;
  },
);
