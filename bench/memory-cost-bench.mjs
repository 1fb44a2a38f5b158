#!/usr/bin/env node
/**
 * What the memory analysis adds to `analyze`: every bundled incident with a heap dump (and any
 * HPROF given as an argument), run as the built command from a cold start with `--no-memory` (the
 * analysis as it was before the dominator tree joined it) and with the default (the memory
 * analysis: riding on the heap's load, or on a worker beside it for bigger heaps), alternately,
 * median of BENCH_RUNS (5), and two heap dumps made once by bench/java/BigHeap.java (cached in
 * bench/out/): about 90 MB (25,000 records; under the 100 MB of the issue's target) and about 120 MB
 * (85,000 records). Prints both wall times, the ratio, and peak RSS.
 * BENCH_BEFORE=<dir>: also runs the build in <dir>/dist (a checkout from before the memory analysis,
 * built), in the same turns, and prints the default's ratio to it: what analyze cost before.
 *
 *   node bench/memory-cost-bench.mjs [heap or incident dir...]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

import { makeBigHeap } from './big-heap.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist/cli.js');
const before = process.env.BENCH_BEFORE;
const runs = Number(process.env.BENCH_RUNS ?? 5);
const incidents = join(root, 'fixtures/incidents');
const bigHeaps = [25_000, 85_000].map((records) => ({ records, file: join(root, `bench/out/mid-${records}.hprof`) }));
if (process.argv.length <= 2) for (const h of bigHeaps) if (!existsSync(h.file)) await makeBigHeap({ records: h.records, plain: h.file });
const targets =
  process.argv.length > 2
    ? process.argv.slice(2)
    : [
        ...readdirSync(incidents)
          .filter((d) => existsSync(join(incidents, d, 'heap.hprof.gz')))
          .map((d) => join(incidents, d)),
        ...bigHeaps.map((h) => h.file),
      ];

function once(target, extra, command = cli) {
  const p = spawnSync('/usr/bin/time', ['-f', '%e %M', process.execPath, command, 'analyze', '--no-progress', '--fail-on', 'never', ...extra, target], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const [seconds, kb] = p.stderr.trim().split('\n').pop().split(' ').map(Number);
  if (p.status !== 0) throw new Error(`${target}: exit ${p.status}\n${p.stderr}`);
  return { seconds, rssMb: kb / 1024 };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(`analyze --no-memory vs analyze (memory analysis on), cold start, median of ${runs}, node ${process.version}`);
if (before !== undefined) console.log(`last column: analyze against the build in ${before} (no memory analysis there), same turns`);
// The target (at most 1.5x) is for heaps under 100 MB: their worst ratios are printed apart.
const UNDER = 100 * 1024 * 1024;
/** The HPROF bytes of a heap file: a gzip one inflated (the bench's are small). */
const hprofBytes = (file) => (file.endsWith('.gz') ? gunzipSync(readFileSync(file)).length : statSync(file).size);
let worst = 0;
let worstBefore = 0;
let worstUnder = 0;
let worstBeforeUnder = 0;
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
  const heap = statSync(target).isDirectory() ? join(target, 'heap.hprof.gz') : target;
  const bytes = hprofBytes(heap);
  const under = bytes < UNDER;
  worst = Math.max(worst, b / a);
  if (under) worstUnder = Math.max(worstUnder, b / a);
  if (c !== undefined) {
    worstBefore = Math.max(worstBefore, b / c);
    if (under) worstBeforeUnder = Math.max(worstBeforeUnder, b / c);
  }
  const big = bigHeaps.find((h) => h.file === target);
  if (big !== undefined) console.log(`(the next line: BigHeap with ${big.records.toLocaleString('en-US')} records)`);
  console.log(
    `${target.replace(root + '/', '').padEnd(44)} heap ${(statSync(heap).size / 1048576).toFixed(1).padStart(5)} ` +
      `MB${heap.endsWith('.gz') ? ` gz (${(bytes / 1048576).toFixed(0).padStart(2)} MB)` : '             '}  ` +
      `${a.toFixed(2)} s -> ${b.toFixed(2)} s  ${(b / a).toFixed(2)}x  peak RSS ${median(without.map((x) => x.rssMb)).toFixed(0)} -> ` +
      `${median(withMemory.map((x) => x.rssMb)).toFixed(0)} MB` +
      (c !== undefined ? `  | before: ${c.toFixed(2)} s, ${(b / c).toFixed(2)}x` : ''),
  );
}
console.log(`worst ratio: ${worst.toFixed(2)}x${before !== undefined ? `; to the build before: ${worstBefore.toFixed(2)}x` : ''}`);
console.log(
  `worst ratio for heaps under 100 MB: ${worstUnder.toFixed(2)}x${before !== undefined ? `; to the build before: ${worstBeforeUnder.toFixed(2)}x` : ''}`,
);
