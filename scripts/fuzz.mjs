#!/usr/bin/env node
/**
 * `npm run fuzz -- [--cli] [--seed N] [--minutes M] [--runs R]`: the robustness properties
 * (test/robustness/mutated-inputs.test.ts) again and again with seeds N, N+1, ... and R cases per
 * property, until M minutes have passed. With --cli, the built CLI end to end instead
 * (test/robustness/cli-fuzz.test.ts, R cases of each of its ten classes a seed; `npm run build`
 * first). Each round runs in its own process with a time limit, so a
 * hang is caught and named by its seed instead of stalling the run. Failures are printed with the
 * seed that reproduces them:  DUMPSLEUTH_FUZZ_SEED=<seed> DUMPSLEUTH_FUZZ_RUNS=<R> npx vitest run test/robustness
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? Number(process.argv[i + 1]) : fallback;
}

const firstSeed = option('seed', Date.now() % 1_000_000);
const minutes = option('minutes', 10);
const runs = option('runs', 150);
const log = process.env.DUMPSLEUTH_FUZZ_LOG ?? 'fuzz.log';
const cli = process.argv.includes('--cli');
const testFile = cli ? 'test/robustness/cli-fuzz.test.ts' : 'test/robustness/mutated-inputs.test.ts';
const seedEnv = (seed) =>
  cli
    ? { DUMPSLEUTH_CLI_FUZZ_SEED: String(seed), DUMPSLEUTH_CLI_FUZZ_CASES: String(runs) }
    : { DUMPSLEUTH_FUZZ_SEED: String(seed), DUMPSLEUTH_FUZZ_RUNS: String(runs) };
const until = Date.now() + minutes * 60_000;
const ROUND_LIMIT_MS = 20 * 60_000;

let seed = firstSeed;
let rounds = 0;
let failures = 0;
console.log(`fuzzing from seed ${firstSeed} for ${minutes} min, ${runs} cases per property; log: ${log}`);
while (Date.now() < until) {
  const started = Date.now();
  const r = spawnSync('npx', ['vitest', 'run', testFile, '--reporter=dot'], {
    env: { ...process.env, ...seedEnv(seed), NO_COLOR: '1' },
    encoding: 'utf8',
    timeout: ROUND_LIMIT_MS,
    maxBuffer: 64 * 1024 * 1024,
  });
  rounds++;
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  if (r.error?.code === 'ETIMEDOUT' || r.signal) {
    failures++;
    const line = `seed ${seed}: HANG or kill (${r.signal ?? r.error?.code}) after ${seconds} s`;
    console.log(line);
    appendFileSync(log, `${line}\n${r.stdout.slice(-4000)}\n`);
  } else if (r.status !== 0) {
    failures++;
    const summary = (r.stdout + r.stderr)
      .split('\n')
      .filter((l) => /FAIL|Counterexample|Caused by|Error:|seed \d+, case/.test(l))
      .slice(0, 20)
      .join('\n');
    console.log(`seed ${seed}: FAILED after ${seconds} s\n${summary}`);
    appendFileSync(log, `seed ${seed} (runs ${runs}): FAILED\n${r.stdout}\n${r.stderr}\n`);
  } else {
    console.log(`seed ${seed}: passed (${seconds} s)`);
  }
  seed++;
}
console.log(`${rounds} rounds, seeds ${firstSeed}..${seed - 1}, ${failures} failing`);
process.exitCode = failures > 0 ? 1 : 0;
