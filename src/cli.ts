#!/usr/bin/env node
/** The process around the CLI (src/cli/main.ts): its streams, environment and exit code. */
import { runCli, version } from './cli/main.js';
import { isClosedPipe } from './commands/output.js';
import { hugePagesEnvironment, runAgain } from './huge-pages.js';

// A reader that closed the pipe (`| head`, quitting `less`) ends the output quietly. Any other error
// writing stdout (a full disk) is said by the write that failed (output.ts); here it only must not throw.
process.stdout.on('error', (e) => {
  if (!isClosedPipe(e)) process.exitCode = 2;
});

const args = process.argv.slice(2);
const hugePages = hugePagesEnvironment(args);
(hugePages !== undefined ? runAgain(args, hugePages) : runCli(args, { stdout: process.stdout, stderr: process.stderr, env: process.env, version })).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`internal error: ${String(e)}\n`);
    process.exitCode = 70;
  },
);
