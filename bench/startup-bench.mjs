#!/usr/bin/env node
/**
 * What a command costs before it reads anything: `dumpsleuth --version` from a cold start, beside
 * `node -e 0` (Node's own start) in the same turns, median of BENCH_RUNS (15). The difference is
 * loading the program: one bundled file (scripts/bundle-cli.mjs).
 * BENCH_BEFORE=<dir>: also runs the build in <dir>/dist (another checkout, built) in the same turns.
 *
 *   node bench/startup-bench.mjs
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.env.BENCH_RUNS ?? 15);
const before = process.env.BENCH_BEFORE;
const variants = [
  { label: 'node -e 0', args: ['-e', '0'] },
  { label: 'dumpsleuth --version', args: [join(root, 'dist/cli.js'), '--version'] },
  ...(before !== undefined ? [{ label: `${before}: dumpsleuth --version`, args: [join(before, 'dist/cli.js'), '--version'] }] : []),
];
const seconds = variants.map(() => []);
for (let r = 0; r < runs; r++) {
  variants.forEach((v, i) => {
    const started = process.hrtime.bigint();
    const p = spawnSync(process.execPath, v.args, { encoding: 'utf8' });
    if (p.status !== 0) throw new Error(`${v.label}: exit ${p.status}\n${p.stderr}`);
    seconds[i].push(Number(process.hrtime.bigint() - started) / 1e9);
  });
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`cold start, median of ${runs}, node ${process.version}`);
const node = median(seconds[0]);
variants.forEach((v, i) => {
  const m = median(seconds[i]);
  console.log(
    `${v.label.padEnd(Math.max(...variants.map((x) => x.label.length)))}  ${m.toFixed(3)} ` +
      `s${i > 0 ? `  (loading the program: ${(m - node).toFixed(3)} s)` : ''}`,
  );
});
