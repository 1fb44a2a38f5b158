#!/usr/bin/env node
// `vitest run` for npm test, with no colour codes when the output is not a terminal. Vitest's colours
// (tinyrainbow) are on whenever TERM is not "dumb" or CI is set, so a CI log or `npm test > log`
// filled with escape codes; NO_COLOR, set before vitest starts, is the switch it reads. A person at
// a terminal keeps the colours; FORCE_COLOR still forces them.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// The package's own bin (its exports do not list the file; its package.json is listed).
const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const env = { ...process.env };
if (process.stdout.isTTY !== true && env.FORCE_COLOR === undefined) env.NO_COLOR = '1';
const child = spawn(process.execPath, [vitest, 'run', ...process.argv.slice(2)], { stdio: 'inherit', env });
// Ctrl-C reaches vitest through the terminal's process group; a signal sent to this process alone is passed on.
for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? 128 + ({ SIGINT: 2, SIGHUP: 1, SIGTERM: 15 }[signal] ?? 1)));
