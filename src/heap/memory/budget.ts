/**
 * Whether the memory analysis of an HPROF fits the memory it may take, told before it starts: an
 * analysis that outgrows the machine is killed by the kernel with nothing said, which is worse than
 * a clear refusal. One decision, memoryFits, for every command (analyze, memory, extract, the UI):
 * from the dump's size when that tells it, else from its objects and references, counted in a pass
 * as quick as the histogram's. The limit is `--max-memory`, else what the machine (or its cgroup) has
 * free.
 */
import { freemem } from 'node:os';

import { approximateBytes } from '../../model/bytes.js';
import type { ProgressListener } from '../../model/progress.js';
import { ColumnsAside } from '../graph/columns-aside.js';
import { hprofBytesEstimate } from '../hprof/byte-source.js';
import { hprofGraphCounts } from '../hprof/hprof-histogram.js';

export interface MemoryLimit {
  readonly bytes: number;
  /** What the limit is, for messages: `--max-memory 8g`, `the 6.2 GB this machine has free`. */
  readonly what: string;
}

/** What the process holds besides the analysis (the program, the model of the incident), counted in every estimate. */
const PROCESS_BYTES = 200 * 1024 * 1024;

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

/**
 * Bytes the analysis holds at its peak for each object and each reference of the graph: 8 arrays of 4
 * bytes an object and one of 4 bytes a reference (the references' own), where the dominator tree
 * lends the graph's columns to a temporary file (see ColumnsAside), 12 arrays without; measured 1,393
 * MiB past the process for 36.2 million objects and 72.5 million references (`node
 * bench/heap-bench.mjs`), 0.8 % over 32 and 4 bytes: 10 % more here. (1,287 MiB since the walk for
 * the paths borrows its room: kept, the estimate errs on the side of a refusal said before it starts.)
 */
const PEAK_BYTES_PER_OBJECT = 36;
const PEAK_BYTES_PER_OBJECT_IN_MEMORY = 53;
const PEAK_BYTES_PER_REFERENCE = 4.4;

/** `--max-memory` when given, else the memory free on this machine, or in its cgroup when that is less. */
export function memoryLimit(given: number | undefined): MemoryLimit {
  if (given !== undefined) return { bytes: given, what: `--max-memory ${approximateBytes(given)}` };
  let free = freemem();
  // A container's limit (cgroup), when the process has one below what the machine has.
  const constrained = process.constrainedMemory();
  if (constrained > 0 && constrained < free) free = constrained - process.memoryUsage.rss();
  return { bytes: free, what: `the ${approximateBytes(free)} this machine has free` };
}

/** What the budget says of a dump before its analysis starts. */
export type MemoryFit =
  | { readonly fits: true }
  | { readonly fits: false; readonly why: string }
  /** Its size cannot tell: its objects and references are counted first (doesNotFitCounted decides). */
  | { readonly fits: 'count-first' };

/**
 * The one decision of the budget. The dump's size tells it when its estimate is under half the limit;
 * past that, a heap of big byte arrays needs far less than its size says and one of tiny objects
 * more, so its objects and references are counted first, when the caller can (`countable`: the
 * `memory` command before it starts, analyze's worker at the start of its own pass); else the size
 * decides.
 */
export function memoryFits(hprofBytes: number, limit: MemoryLimit, countable: boolean): MemoryFit {
  if (sizeTellsIt(hprofBytes, limit)) return { fits: true };
  if (countable) return { fits: 'count-first' };
  const why = doesNotFit(hprofBytes, limit);
  return why === undefined ? { fits: true } : { fits: false, why };
}

/** Why the analysis of this HPROF does not fit the limit, or undefined when it does, counting its objects when its size cannot tell. */
export async function doesNotFitFile(file: string, limit: MemoryLimit, heapDump?: number, onCounting?: ProgressListener): Promise<string | undefined> {
  const fit = memoryFits(hprofBytesEstimate(file), limit, true);
  if (fit.fits === 'count-first') return doesNotFitCounted(file, limit, heapDump, onCounting);
  return fit.fits ? undefined : fit.why;
}

/** Why the analysis does not fit, told from the dump's objects and references, counted now (a pass as quick as the histogram's). */
export async function doesNotFitCounted(file: string, limit: MemoryLimit, heapDump?: number, onCounting?: ProgressListener): Promise<string | undefined> {
  return doesNotFitCounts(await hprofGraphCounts(file, onCounting, heapDump), hprofBytesEstimate(file), limit);
}

/** The memory the analysis of a dump of this many HPROF bytes is expected to take at its peak. */
function memoryNeeded(hprofBytes: number): number {
  // The graph takes about half the dump's bytes (25 bytes an object of about 50 in HPROF).
  const aside = ColumnsAside.willServe(hprofBytes / 2);
  return PROCESS_BYTES + hprofBytes * (aside ? PEAK_PER_HPROF_BYTE : PEAK_PER_HPROF_BYTE_IN_MEMORY);
}

/** Why the analysis does not fit the limit, told from the dump's size, or undefined when it does. */
export function doesNotFit(hprofBytes: number, limit: MemoryLimit): string | undefined {
  const needed = memoryNeeded(hprofBytes);
  if (needed <= limit.bytes) return undefined;
  return `it needs about ${approximateBytes(needed)} for a heap dump of about ${approximateBytes(hprofBytes)}, more than ${limit.what}`;
}

/** Whether the dump's size is enough to tell: when the estimate from it is under half the limit. */
export function sizeTellsIt(hprofBytes: number, limit: MemoryLimit): boolean {
  return memoryNeeded(hprofBytes) <= limit.bytes / 2;
}

/** Why the analysis of a dump with these counts does not fit the limit, or undefined when it does. */
export function doesNotFitCounts(
  counts: { readonly objects: number; readonly references: number },
  hprofBytes: number,
  limit: MemoryLimit,
): string | undefined {
  // The graph's columns: 16 bytes an object and 4 a reference.
  const aside = ColumnsAside.willServe(16 * counts.objects + 4 * counts.references);
  const needed =
    PROCESS_BYTES + counts.objects * (aside ? PEAK_BYTES_PER_OBJECT : PEAK_BYTES_PER_OBJECT_IN_MEMORY) + counts.references * PEAK_BYTES_PER_REFERENCE;
  if (needed <= limit.bytes) return undefined;
  return (
    `it needs about ${approximateBytes(needed)} for a heap dump of about ${approximateBytes(hprofBytes)}, more than ${limit.what} ` +
    `(its ${counts.objects.toLocaleString('en-US')} objects and up to ${counts.references.toLocaleString('en-US')} references counted)`
  );
}

/** Why the analysis was not run, and how to ask for it. */
export function notComputed(tooBig: string, name: string): string {
  return `not computed: ${tooBig} (give --max-memory with more to run it anyway, or run \`dumpsleuth memory ${name}\` on a machine with more memory)`;
}

/** An analysis that was not run: it would need more memory than it may take (the message says how much, and why). */
export class MemoryDoesNotFit extends Error {}
