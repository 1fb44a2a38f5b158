#!/usr/bin/env node
/**
 * What the memory analysis adds to `analyze`: every bundled incident with a heap dump (and any
 * HPROF given as an argument), run as the built command from a cold start with `--no-memory` (the
 * analysis as it was before the dominator tree joined it) and with the default (the memory
 * analysis on a worker thread beside the load), alternately, median of BENCH_RUNS (5), and a heap
 * dump of about 120 MB made once by bench/java/BigHeap.java (85,000 records, cached in bench/out/).
 * Prints both wall times, the ratio, and peak RSS.
 * BENCH_BEFORE=<dir>: also runs the build in <dir>/dist (a checkout from before the memory analysis,
 * built), in the same turns, and prints the default's ratio to it: what analyze cost before.
 *
 *   node bench/memory-cost-bench.mjs [heap or incident dir...]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { makeBigHeap } from './big-heap.mjs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist/cli.js');
const before = process.env.BENCH_BEFORE;
const runs = Number(process.env.BENCH_RUNS ?? 5);
const incidents = join(root, 'fixtures/incidents');
const mid = join(root, 'bench/out/mid-85000.hprof');
if (process.argv.length <= 2 && !existsSync(mid)) await makeBigHeap({ records: 85_000, plain: mid });
const targets = process.argv.length > 2
  ? process.argv.slice(2)
  : [...readdirSync(incidents).filter((d) => existsSync(join(incidents, d, 'heap.hprof.gz'))).map((d) => join(incidents, d)), mid];

function once(target, extra, command = cli) {
  const p = spawnSync('/usr/bin/time', ['-f', '%e %M', process.execPath, command, 'analyze', '--no-progress', '--fail-on', 'never', ...extra, target], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const [seconds, kb] = p.stderr.trim().split('\n').pop().split(' ').map(Number);
  if (p.status !== 0) throw new Error(`${target}: exit ${p.status}\n${p.stderr}`);
  return { seconds, rssMb: kb / 1024 };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(`analyze --no-memory vs analyze (memory analysis on), cold start, median of ${runs}, node ${process.version}`);
if (before !== undefined) console.log(`last column: analyze against the build in ${before} (no memory analysis there), same turns`);
let worst = 0;
let worstBefore = 0;
for (const target of targets) {
  const without = [];
  const withMemory = [];
  const then = [];
  for (let r = 0; r < runs; r++) {
    without.push(once(target, ['--no-memory']));
    withMemory.push(once(target, []));
    if (before !== undefined) then.push(once(target, [], join(before, 'dist/cli.js')));
  }
  const a = median(without.map((x) => x.seconds));
  const b = median(withMemory.map((x) => x.seconds));
  const c = then.length > 0 ? median(then.map((x) => x.seconds)) : undefined;
  worst = Math.max(worst, b / a);
  if (c !== undefined) worstBefore = Math.max(worstBefore, b / c);
  const heap = statSync(target).isDirectory() ? join(target, 'heap.hprof.gz') : target;
  if (target === mid) console.log('(the next line: BigHeap with 85,000 records)');
  console.log(
    `${target.replace(root + '/', '').padEnd(52)} heap ${(statSync(heap).size / 1048576).toFixed(1).padStart(6)} MB  ` +
      `${a.toFixed(2)} s -> ${b.toFixed(2)} s  ${(b / a).toFixed(2)}x  peak RSS ${median(without.map((x) => x.rssMb)).toFixed(0)} -> ${median(withMemory.map((x) => x.rssMb)).toFixed(0)} MB` +
      (c !== undefined ? `  | before: ${c.toFixed(2)} s, ${(b / c).toFixed(2)}x` : ''),
  );
}
console.log(`worst ratio: ${worst.toFixed(2)}x${before !== undefined ? `; to the build before: ${worstBefore.toFixed(2)}x` : ''}`);
