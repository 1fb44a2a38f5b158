/**
 * Whether the memory analysis of an HPROF fits the memory it may take, told before it starts: an
 * analysis that outgrows the machine is killed by the kernel with nothing said, which is worse than
 * a clear refusal. The need is estimated from the dump's size, at the peak the benchmarks measure;
 * the limit is `--max-memory`, else what the machine (or its cgroup) has free.
 */
import { freemem } from 'node:os';

import { ColumnsAside } from '../graph/columns-aside.js';
import { type MemoryLimit, PROCESS_BYTES } from '../graph/memory-need.js';
import { approximateBytes } from '../../model/bytes.js';

/**
 * Peak memory per byte of HPROF, where the dominator tree sets the graph's columns aside in a
 * temporary file (see ColumnsAside): 1,458 MiB at the peak for a 1,793 MiB dump of 36 million
 * objects and 5,580 MiB for a 6,966 MiB dump of 144 million (`node bench/heap-bench.mjs`, `node
 * bench/production-heap-bench.mjs`, docs/benchmarks.md), 0.81 and 0.80, rounded up; plus what the
 * process holds before. (1,347 and 5,043 MiB since the walk for the paths borrows its room, 0.75 and
 * 0.72: kept, the estimate errs on the side of a refusal said before it starts.)
 */
const PEAK_PER_HPROF_BYTE = 0.9;
/** Where no temporary file can be made, or the dump is too small for one: 2,002 MiB for the same 1,793 MiB (1.12), rounded up. */
const PEAK_PER_HPROF_BYTE_IN_MEMORY = 1.2;

/** The memory the analysis of a dump of this many HPROF bytes is expected to take at its peak. */
function memoryNeeded(hprofBytes: number): number {
  // The graph takes about half the dump's bytes (25 bytes an object of about 50 in HPROF).
  const aside = ColumnsAside.willServe(hprofBytes / 2);
  return PROCESS_BYTES + hprofBytes * (aside ? PEAK_PER_HPROF_BYTE : PEAK_PER_HPROF_BYTE_IN_MEMORY);
}

/** `--max-memory` when given, else the memory free on this machine, or in its cgroup when that is less. */
export function memoryLimit(given: number | undefined): MemoryLimit {
  if (given !== undefined) return { bytes: given, what: `--max-memory ${approximateBytes(given)}` };
  let free = freemem();
  // A container's limit (cgroup), when the process has one below what the machine has.
  const constrained = process.constrainedMemory();
  if (constrained > 0 && constrained < free) free = constrained - process.memoryUsage.rss();
  return { bytes: free, what: `the ${approximateBytes(free)} this machine has free` };
}

/** Why the analysis does not fit the limit, or undefined when it does. */
export function doesNotFit(hprofBytes: number, limit: MemoryLimit): string | undefined {
  const needed = memoryNeeded(hprofBytes);
  if (needed <= limit.bytes) return undefined;
  return `it needs about ${approximateBytes(needed)} for a heap dump of about ${approximateBytes(hprofBytes)}, more than ${limit.what}`;
}

/**
 * Whether the dump's size is enough to tell: when the estimate from it is under half the limit. Past
 * that, the dump's objects and references are counted (a pass as quick as the histogram's) and
 * doesNotFitCounts (heap/graph/memory-need.ts) decides: a heap of big byte arrays needs far less than its size says, one of tiny
 * objects more.
 */
export function sizeTellsIt(hprofBytes: number, limit: MemoryLimit): boolean {
  return memoryNeeded(hprofBytes) <= limit.bytes / 2;
}
