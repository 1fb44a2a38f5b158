/**
 * The histogram's pass over a plain file cut in parts (see file-parts.ts), read on this thread and on
 * worker threads at once, their tallies added up in file order. Under
 * the test runner (which cannot start a worker from TypeScript sources) the parts run here, one after
 * the other, through the same cut and the same additions.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

import type { ProgressListener } from '../../model/progress.js';
import { feedPlainPart, type FeedSummary, READ_BUFFER } from './byte-source.js';
import { ClassMetadata } from './class-metadata.js';
import { type FileParts, hprofFileParts } from './file-parts.js';
import { HistogramTally, type HistogramTallyState } from './histogram-tally.js';
import { type ClassDumpRecord, HprofFormatError, HprofParser, type HprofVisitor } from './parser.js';

/** Plain files under this size are read in one part: a worker's start costs about what a part would save. */
export const MIN_BYTES_IN_PARTS = 128 * 1024 * 1024;

/** How many threads a pass may read a file on: one per core, up to 8. */
export function threadsWanted(): number {
  return Math.min(8, availableParallelism());
}

/** Parts a file is cut into for each thread, so that a thread done early takes another. */
export const PARTS_PER_THREAD = 4;

/** A pass's result as its records left it. */
interface Tallied {
  readonly tally: HistogramTally;
  readonly meta: ClassMetadata;
  readonly parser: HprofParser;
  readonly fed: FeedSummary;
}

/** The parser of the histogram's pass: class records and each object's header, no body. */
export function tallyingParser(meta: ClassMetadata, tally: HistogramTally): HprofParser {
  return new HprofParser(tallyingVisitor({ meta, tally }));
}

/** Where a tallying visitor puts what it is told: the part being read. */
interface TallySink {
  meta: ClassMetadata;
  tally: HistogramTally;
}

function tallyingVisitor(sink: TallySink): HprofVisitor {
  return {
    utf8: (id, bytes) => sink.meta.name(id, bytes),
    loadClass: (serial, classId, nameId) => sink.meta.loadClass(serial, classId, nameId),
    classDump: (c) => sink.meta.classDumps.set(c.id, c),
    instanceHeader: (id, classId) => {
      sink.tally.instance(id, classId);
      return false;
    },
    objectArrayHeader: (id, classId, length) => {
      sink.tally.objectArray(id, classId, length);
      return false;
    },
    primitiveArrayHeader: (id, type, length) => {
      sink.tally.primitiveArray(id, type, length);
      return false;
    },
  };
}

/**
 * The parts a thread reads go through one visitor, whose functions stay the same from part to part:
 * with new ones for each part, the optimised parser met other functions at its calls and was thrown
 * away and made again each time (a third of the pass, on a thread that read four parts).
 */
const threadSink: TallySink = { meta: new ClassMetadata(), tally: new HistogramTally() };
const threadVisitor = tallyingVisitor(threadSink);
let threadBuffer: Buffer | undefined;

/** Part `index` of the file, tallied on this thread. */
function tallyPart(path: string, fileParts: FileParts, index: number, onProgress?: ProgressListener): Tallied {
  const meta = (threadSink.meta = new ClassMetadata());
  const tally = (threadSink.tally = new HistogramTally());
  const parser = new HprofParser(threadVisitor);
  const part = fileParts.parts[index]!;
  if (index > 0) parser.resumeInHeapDump(fileParts.header, part.start);
  const fed = feedPlainPart(path, parser, part, onProgress, (threadBuffer ??= Buffer.allocUnsafe(READ_BUFFER)));
  return { tally, meta, parser, fed };
}

/** A part's tally as it crosses from its worker. */
export interface CrossingTally {
  readonly tally: HistogramTallyState;
  /** The class dumps the part held (names and class loads come before the first cut). */
  readonly classDumps: readonly ClassDumpRecord[];
  readonly warnings: readonly string[];
  readonly heapDumps: number;
  readonly fed: FeedSummary;
}

function crossing(t: Tallied): CrossingTally {
  return {
    tally: t.tally.state(),
    classDumps: [...t.meta.classDumps.values()],
    warnings: t.parser.warningReport(),
    heapDumps: t.parser.heapDumps,
    fed: t.fed,
  };
}

/** The whole file's tally: the parts' added in file order; the last part's feed summary. */
export interface TalliedInParts {
  readonly tally: HistogramTally;
  readonly meta: ClassMetadata;
  readonly idSize: 4 | 8;
  readonly warnings: string[];
  readonly fed: FeedSummary;
}

/**
 * The file cut into `count` parts (see file-parts.ts) and tallied on `threads` threads, this one
 * included; undefined when it cannot be cut. Parts hold different numbers of objects (a part of big
 * arrays reads several times faster than one of small objects), so the threads take them one by one
 * from a shared counter until none is left, rather than a fixed share each. The first part (the
 * names and class loads) is this thread's. The workers start before the file is looked at: their
 * start and the look take about as long.
 */
export async function tallyInParts(path: string, count: number, threads: number, onProgress?: ProgressListener): Promise<TalliedInParts | undefined> {
  const workers = import.meta.url.endsWith('.ts') ? [] : Array.from({ length: threads - 1 }, () => new PartsWorker());
  const fileParts = hprofFileParts(path, count);
  if (fileParts === undefined) {
    for (const w of workers) w.stop();
    return undefined;
  }
  const next = new Int32Array(new SharedArrayBuffer(4));
  next[0] = 1;
  const fromWorkers = workers.map((w) => w.read(path, fileParts, next));
  const size = fileParts.parts[fileParts.parts.length - 1]!.end;
  const first = tallyPart(path, fileParts, 0);
  const byIndex: CrossingTally[] = [];
  for (let i = Atomics.add(next, 0, 1); i < fileParts.parts.length; i = Atomics.add(next, 0, 1)) {
    // Every part before the last one taken is being read or read: the progress is at least there.
    onProgress?.({ phase: 'heap', bytesRead: fileParts.parts[i]!.start, totalBytes: size });
    byIndex[i] = crossing(tallyPart(path, fileParts, i));
  }
  for (const done of await Promise.all(fromWorkers)) for (const [i, part] of done) byIndex[i] = part;
  const warnings = first.parser.warningReport();
  for (let i = 1; i < fileParts.parts.length; i++) {
    const part = byIndex[i]!;
    first.tally.append(part.tally);
    for (const c of part.classDumps) first.meta.classDumps.set(c.id, c);
    warnings.push(...part.warnings);
  }
  const last = byIndex[fileParts.parts.length - 1] ?? crossing(first);
  return { tally: first.tally, meta: first.meta, idSize: fileParts.header.idSize, warnings, fed: last.fed };
}

/** What a worker of parts is told: the file, its parts, the counter of the next part to take. */
export interface PartsOrder {
  readonly path: string;
  readonly fileParts: FileParts;
  readonly next: Int32Array;
}

/** What a worker of parts posts: each part it took, by index, or why it stopped. */
export type PartsMessage = { parts: Array<[number, CrossingTally]> } | { error: string; format: boolean };

/** Parts tallied on this thread, taken from `next` until none is left (a worker's loop). */
export function takeParts({ path, fileParts, next }: PartsOrder): Array<[number, CrossingTally]> {
  const done: Array<[number, CrossingTally]> = [];
  for (let i = Atomics.add(next, 0, 1); i < fileParts.parts.length; i = Atomics.add(next, 0, 1)) done.push([i, crossing(tallyPart(path, fileParts, i))]);
  return done;
}

/** A worker thread started ahead, then told which file to read (see histogram-worker.ts). */
class PartsWorker {
  private readonly worker = new Worker(new URL('./histogram-worker.js', import.meta.url));

  read(path: string, fileParts: FileParts, next: Int32Array): Promise<Array<[number, CrossingTally]>> {
    const worker = this.worker;
    const order: PartsOrder = { path, fileParts, next };
    worker.postMessage(order);
    return new Promise((resolve, reject) => {
      worker.once('message', (m: PartsMessage) => {
        void worker.terminate();
        if ('parts' in m) resolve(m.parts);
        else reject(m.format ? new HprofFormatError(m.error) : new Error(m.error));
      });
      worker.once('error', reject);
      worker.once('exit', (code) => {
        if (code !== 0) reject(new Error(`a thread reading the heap dump stopped (exit ${code})`));
      });
    });
  }

  stop(): void {
    void this.worker.terminate();
  }
}
