/**
 * Whether the memory analysis of an HPROF fits the memory it may take, told before it starts: an
 * analysis that outgrows the machine is killed by the kernel with nothing said, which is worse than
 * a clear refusal. The need is estimated from the dump's size, at the peak the benchmarks measure;
 * the limit is `--max-memory`, else what the machine (or its cgroup) has free.
 */
import { freemem } from 'node:os';

import { approximateBytes } from '../model/bytes.js';

/**
 * Peak memory per byte of HPROF: 2,963 MB at the peak for a 1,793 MB dump of 36 million objects
 * (`node bench/heap-bench.mjs`, docs/benchmarks.md), rounded up; plus what the process holds before.
 */
const PEAK_PER_HPROF_BYTE = 1.7;
const PROCESS_BYTES = 200 * 1024 * 1024;

/** The memory the analysis of a dump of this many HPROF bytes is expected to take at its peak. */
function memoryNeeded(hprofBytes: number): number {
  return PROCESS_BYTES + hprofBytes * PEAK_PER_HPROF_BYTE;
}

export interface MemoryLimit {
  readonly bytes: number;
  /** What the limit is, for messages: `--max-memory 8g`, `the 6.2 GB this machine has free`. */
  readonly what: string;
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
