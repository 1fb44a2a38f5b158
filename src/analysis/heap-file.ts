/**
 * A heap dump file, identified once and opened by its kind: what analyze's loading, `histogram`,
 * `memory` and `extract` all call. Format errors of the HPROF reader become errors the user can act on.
 */
import { InputError } from '../errors.js';
import type { HeapStore } from '../heap/heap-model.js';
import type { Histogram } from '../heap/histogram.js';
import type { LoadHooks, LoadPlan } from '../heap/hprof/hprof-loader.js';
import { HprofFormatError } from '../heap/hprof/parser.js';
import { heapHistogram, type HeapSource, openHeap } from '../heap/open-heap.js';
import { ACCEPTED_HEAP_INPUTS, type IdentifiedInput, identifyInput, requireHeapKind } from '../input/identify.js';
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
  const kind = requireHeapKind(input);
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
  const source = await heapSourceOf(identified ?? (await identifyHeapFile(file)), plan.maxGunzipBytes);
  if (source.kind === 'v8-heapsnapshot') throw v8NotJavaError(file);
  return withHprofErrors(file, () => openHeap(source, plan, onProgress, hooks));
}

export async function heapHistogramOfFile(file: string, onProgress?: ProgressListener, heapDump?: number): Promise<Histogram> {
  const source = await heapSourceOf(await identifyHeapFile(file), undefined);
  const histogram = await withHprofErrors(file, () => heapHistogram(source, onProgress, heapDump));
  if (histogram === undefined) throw new InputError(`${file}: this heap snapshot carries no histogram`, 'run `dumpsleuth histogram` on the HPROF it came from');
  return histogram;
}

async function withHprofErrors<T>(path: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof HprofFormatError) throw new InputError(`${path}: ${e.message}`, ACCEPTED_HEAP_INPUTS);
    throw e;
  }
}
