#!/usr/bin/env node
/**
 * Prints what each screen of `dumpsleuth ui` shows on a bundled incident, captured from a real
 * terminal (tmux), for the README. Needs a build and tmux.   node scripts/ui-captures.mjs [incident]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const incident = process.argv[2] ?? 'fixtures/incidents/http-pool-starvation';
const session = `dumpsleuth-captures-${process.pid}`;
const tmux = (...a) => execFileSync('tmux', a, { encoding: 'utf8' });
const sleep = (s) => spawnSync('sleep', [String(s)]);
tmux('new-session', '-d', '-s', session, '-x', '110', '-y', '24', `cd ${root} && node dist/cli.js ui ${incident}; sleep 2`);
try {
  for (let i = 0; i < 100 && !/1 Overview/.test(tmux('capture-pane', '-p', '-t', session)); i++) sleep(0.1);
  for (const key of ['1', '2', '3', '4', '5', '6', '7', '9']) {
    tmux('send-keys', '-t', session, key);
    sleep(0.3);
    const screen = tmux('capture-pane', '-p', '-t', session).replace(/\s+$/gm, '').trimEnd();
    process.stdout.write('```\n' + screen + '\n```\n\n');
  }
  tmux('send-keys', '-t', session, 'q');
} finally {
  spawnSync('tmux', ['kill-session', '-t', session]);
}
