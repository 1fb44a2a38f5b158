/**
 * The class histogram of an HPROF file in one pass over its records: per class, instances and shallow
 * bytes. Object bodies are skipped, never decoded. A big plain file is read in parts at once, one per
 * core (see file-parts.ts), and their tallies added up in file order.
 */
import { statSync } from 'node:fs';

import type { ProgressListener } from '../../model/progress.js';
import type { Histogram } from '../histogram.js';
import { feedHprof, isGzipFile } from './byte-source.js';
import { ClassMetadata } from './class-metadata.js';
import { MIN_BYTES_IN_PARTS, PARTS_PER_THREAD, tallyingParser, tallyInParts, threadsWanted } from './histogram-parts.js';
import { type GraphCounts, HistogramTally } from './histogram-tally.js';
import { truncationWarning } from './hprof-warnings.js';
import { HprofFormatError } from './parser.js';

/**
 * `heapDump`: which heap dump of the file to count, from 1 (`--dump N`). `parts`: how many parts to
 * cut the file into, read on up to as many threads; by default a plain file of 128 MiB or more is
 * cut for every core to read.
 */
export async function hprofHistogram(
  path: string,
  onProgress?: ProgressListener,
  heapDump?: number,
  parts?: number,
  maxGunzipBytes?: number,
): Promise<Histogram> {
  const { tally, meta, idSize, warnings, fed } = await tallied(path, onProgress, heapDump, parts, maxGunzipBytes);
  const histogram = tally.histogram(path, meta, idSize, warnings);
  return fed.truncatedAt !== undefined ? { ...histogram, cut: truncationWarning(fed) } : histogram;
}

/** How many objects a dump's object graph has, and at most how many references (the histogram's pass). */
export async function hprofGraphCounts(path: string, onProgress?: ProgressListener, heapDump?: number, parts?: number): Promise<GraphCounts> {
  const { tally, meta } = await tallied(path, onProgress, heapDump, parts);
  return tally.graphCounts(meta);
}

async function tallied(
  path: string,
  onProgress: ProgressListener | undefined,
  heapDump: number | undefined,
  parts: number | undefined,
  maxGunzipBytes?: number,
) {
  const gzip = isGzipFile(path);
  // The first heap dump only: which dump a part is in is known from the file's start.
  const threads = parts === undefined ? (statSync(path).size < MIN_BYTES_IN_PARTS ? 1 : threadsWanted()) : Math.min(parts, threadsWanted());
  const count = parts ?? threads * PARTS_PER_THREAD;
  // The first heap dump only: which dump a part is in is known from the file's start.
  const whole = gzip || (heapDump ?? 1) !== 1 || count < 2 ? undefined : await tallyInParts(path, count, threads, onProgress);
  if (whole !== undefined) {
    if (whole.fed.truncatedAt !== undefined) whole.warnings.push(truncationWarning(whole.fed));
    return whole;
  }
  const meta = new ClassMetadata();
  const tally = new HistogramTally();
  const parser = tallyingParser(meta, tally);
  const fed = await feedHprof(path, parser, {
    gzip,
    ...(onProgress !== undefined ? { onProgress } : {}),
    ...(heapDump !== undefined ? { heapDump } : {}),
    ...(maxGunzipBytes !== undefined ? { maxGunzipBytes } : {}),
  });
  if (parser.header === undefined) throw new HprofFormatError(`the file ends before the HPROF header does`);
  const warnings = parser.warningReport();
  if (fed.truncatedAt !== undefined) warnings.push(truncationWarning(fed));
  return { tally, meta, idSize: parser.header.idSize, warnings, fed };
}
