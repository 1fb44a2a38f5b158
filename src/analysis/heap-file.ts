/**
 * A heap dump file, identified once and opened by its kind: what analyze's loading, `histogram`,
 * `memory` and `extract` all call. Format errors of the HPROF reader become errors the user can act on.
 */
import { InputError } from '../errors.js';
import type { HeapStore } from '../heap/heap-model.js';
import type { Histogram } from '../heap/histogram.js';
import { heapHistogram, type HeapSource, HprofFormatError, type LoadHooks, type LoadPlan, openHeap } from '../heap/open-heap.js';
import { ACCEPTED_HEAP_INPUTS, type IdentifiedInput, identifyInput, requireHeapFormat } from '../input/identify.js';
import { openInput } from '../input/open.js';
import type { ProgressListener } from '../model/progress.js';

/** What a heap command says of a directory it was given. */
const HEAP_DIRECTORY_REMEDY = 'pass a heap dump file';

export function v8NotJavaError(path: string): InputError {
  return new InputError(
    `${path} is a V8 .heapsnapshot (Node.js/Chrome): it has no Java objects to analyse`,
    'use `dumpsleuth memory` (what holds its memory) or `dumpsleuth histogram` for it',
  );
}

/** Identifies a file a heap command was given (errors name it as given). */
export function identifyHeapFile(file: string, maxGunzipBytes?: number): Promise<IdentifiedInput> {
  return identifyInput(file, file, { directoryRemedy: HEAP_DIRECTORY_REMEDY, ...(maxGunzipBytes !== undefined ? { maxGunzipBytes } : {}) });
}

async function heapSourceOf(input: IdentifiedInput, maxGunzipBytes: number | undefined): Promise<HeapSource> {
  const { kind } = requireHeapFormat(input);
  if (kind === 'hprof') return { kind, file: input.file, gzip: input.gzip };
  if (kind !== 'dumpsleuth-heap') return { kind, file: input.file };
  return { kind, file: input.file, opened: await openInput(input.file, undefined, maxGunzipBytes) };
}

/** The objects the analyses need, from an HPROF or an extract; `identified` when the caller identified it already. */
export async function openHeapFile(
  file: string,
  plan: LoadPlan,
  onProgress?: ProgressListener,
  hooks?: LoadHooks,
  identified?: IdentifiedInput,
): Promise<HeapStore> {
  const source = await heapSourceOf(identified ?? (await identifyHeapFile(file, plan.maxGunzipBytes)), plan.maxGunzipBytes);
  if (source.kind === 'v8-heapsnapshot') throw v8NotJavaError(file);
  const store = await withHprofErrors(file, () => openHeap(source, plan, onProgress, hooks));
  // A dump of which nothing could be read is no heap: an error naming why (a report of "0 objects"
  // would read as an empty heap, and an extract of it as a snapshot of one).
  if (store.cut !== undefined && (store.histogram?.totalInstances ?? 0) === 0) throw nothingReadError(file, store.cut);
  return store;
}

export async function heapHistogramOfFile(file: string, onProgress?: ProgressListener, heapDump?: number, maxGunzipBytes?: number): Promise<Histogram> {
  const source = await heapSourceOf(await identifyHeapFile(file, maxGunzipBytes), maxGunzipBytes);
  const histogram = await withHprofErrors(file, () => heapHistogram(source, onProgress, heapDump, maxGunzipBytes));
  if (histogram === undefined) throw new InputError(`${file}: this heap snapshot carries no histogram`, 'run `dumpsleuth histogram` on the HPROF it came from');
  return histogram;
}

/** How a cut's words end: what was read before the cut (nothing, when this error is said). */
const READ_BEFORE = '; everything before it was read';

/** A heap dump cut before its first object: `memory`, `histogram`, `extract` and `analyze` refuse it (exit 2), saying why. */
export function nothingReadError(path: string, cut: string): InputError {
  return new InputError(
    // The cut's own words end in what was read before it, which here was nothing.
    `${path}: nothing of the heap dump could be read: ${cut.includes(READ_BEFORE) ? cut.slice(0, cut.indexOf(READ_BEFORE)) : cut}`,
    cut.includes('--max-gunzip-size') ? 'raise --max-gunzip-size to read on' : 'take or copy the heap dump again, whole',
  );
}

async function withHprofErrors<T>(path: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof HprofFormatError) throw new InputError(`${path}: ${e.message}`, ACCEPTED_HEAP_INPUTS);
    throw e;
  }
}
