/**
 * What the memory analysis of a heap needs at its peak, told from the counts of its graph (objects and
 * references, see hprofGraphCounts), and whether that fits the memory it may take. Here, beside the
 * analysis, so that a worker running it can tell too; the estimate from a dump's size alone is
 * analysis/memory-budget.ts's.
 */
import { approximateBytes } from '../../model/bytes.js';
import { ColumnsAside } from './columns-aside.js';

export interface MemoryLimit {
  readonly bytes: number;
  /** What the limit is, for messages: `--max-memory 8g`, `the 6.2 GB this machine has free`. */
  readonly what: string;
}

/** What the process holds besides the analysis (the program, the model of the incident), counted in every estimate. */
export const PROCESS_BYTES = 200 * 1024 * 1024;

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

/** An analysis that was not run: it would need more memory than it may take (the message says how much, and why). */
export class MemoryDoesNotFit extends Error {}
