/**
 * The memory analysis of a production-sized heap (issue 34): a real JVM running bench/java/BigHeap.java
 * with 12 million records (about 7 GB of heap, 150 million objects, a HashMap whose table is one array
 * of over 64 MiB of ids), dumped with jmap beside `jmap -histo:live` of the same process. Prints the
 * time and peak RSS of `dumpsleuth histogram` (the baseline) and `dumpsleuth memory` on the same file,
 * and compares the objects memory counts as reachable with the live objects jmap counted.
 *
 *   npm run build && node bench/production-heap-bench.mjs
 *
 * BENCH_BIG_RECORDS changes the records (default 12000000); BENCH_REBUILD=1 makes the dump again.
 * Needs about 12 GB for the JVM and as much for the analysis: skipped, with a message, on a machine
 * with less than 22 GB.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { makeBigHeap } from './big-heap.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const cli = join(root, 'dist', 'cli.js');
const NEEDED_GB = 22;

if (totalmem() < NEEDED_GB * 2 ** 30) {
  console.log(`skipped: this machine has ${(totalmem() / 2 ** 30).toFixed(1)} GB; the JVM and the analysis need about ${NEEDED_GB} GB`);
  process.exit(0);
}
const records = Number(process.env.BENCH_BIG_RECORDS ?? 12_000_000);
const out = join(here, 'out');
mkdirSync(out, { recursive: true });
const dump = join(out, `production-${records}.hprof`);
const histo = join(out, `production-${records}-histo-live.txt`);
if (process.env.BENCH_REBUILD || !existsSync(dump) || !existsSync(histo)) await makeBigHeap({ records, plain: dump, heap: '12g', histo });

/** One CLI run under /usr/bin/time, its figures read from its stderr. */
function cliRun(args) {
  const r = spawnSync('/usr/bin/time', ['-f', 'TIME %e %M', process.execPath, cli, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const m = /TIME ([\d.]+) (\d+)/.exec(r.stderr ?? '');
  if (!m) throw new Error(`no figures from ${args.join(' ')}: ${r.stderr}`);
  return { seconds: Number(m[1]), peakMb: Number(m[2]) / 1024, stdout: r.stdout, status: r.status };
}

const gb = statSync(dump).size / 1e9;
console.log(`input: ${gb.toFixed(2)} GB HPROF (${dump}), ${records} records; node ${process.version}`);
const histogram = cliRun(['histogram', dump, '--format', 'json', '--no-progress']);
const h = JSON.parse(histogram.stdout);
console.log(
  `histogram        ${histogram.seconds.toFixed(1).padStart(7)} s  ${(gb / histogram.seconds).toFixed(2)} GB/s  ` +
    `peak RSS ${histogram.peakMb.toFixed(0).padStart(6)} MB  ${h.totalInstances} objects`,
);
const memory = cliRun(['memory', dump, '--format', 'json', '--no-progress']);
if (memory.status !== 0) console.log(`memory exited ${memory.status}`);
const m = JSON.parse(memory.stdout);
console.log(
  `memory           ${memory.seconds.toFixed(1).padStart(7)} s  ${(memory.seconds / histogram.seconds).toFixed(1)}x the histogram  ` +
    `peak RSS ${memory.peakMb.toFixed(0).padStart(6)} MB  ${((memory.peakMb * 1048576) / m.heap.objects).toFixed(1)} bytes/object`,
);
let live = 0;
let liveClasses = 0;
for (const line of readFileSync(histo, 'utf8').split('\n')) {
  const r = /^\s*\d+:\s+(\d+)\s+\d+\s+(\S+)/.exec(line);
  if (r) {
    live += Number(r[1]);
    liveClasses++;
  }
}
console.log(
  `reachable (memory) ${m.heap.reachableObjects}; unreachable ${m.heap.unreachable.objects}; live (jmap -histo:live) ${live} in ${liveClasses} classes; ` +
    `difference ${m.heap.reachableObjects - live}`,
);
for (const w of m.warnings ?? []) console.log(`warning: ${w}`);
