/**
 * A heap dump opened by the kind its content was identified as (input/identify.ts): HPROF (plain
 * or gzip), dumpsleuth's JSON heap snapshot, or a V8 .heapsnapshot. Nothing here sniffs again.
 */
import type { ProgressListener } from '../model/progress.js';
import type { HeapStore } from './heap-model.js';
import type { Histogram } from './histogram.js';
import { hprofHistogram } from './hprof/hprof-histogram.js';
import { type LoadHooks, loadHprof, type LoadPlan } from './hprof/hprof-loader.js';
import { readHeapSnapshot, type SnapshotText } from './json/snapshot-reader.js';
import { readV8HeapSnapshotHistogram } from './v8/v8-snapshot.js';

/** The loader's plan and hooks, and its format error, for the callers of openHeap (hprof/ is the heap's own). */
export { type LoadHooks, type LoadPlan } from './hprof/hprof-loader.js';
export { HprofFormatError } from './hprof/parser.js';
/** The dumpsleuth heap snapshot `extract` writes (openHeap reads it back). */
export { writeHeapSnapshotFile } from './json/snapshot-writer.js';

/** A heap dump ready to read: an HPROF is read from its file; a snapshot from the text its caller opened. */
export type HeapSource =
  | { readonly kind: 'hprof'; readonly file: string; readonly gzip?: boolean }
  | { readonly kind: 'dumpsleuth-heap'; readonly file: string; readonly opened: SnapshotText }
  | { readonly kind: 'v8-heapsnapshot'; readonly file: string };

/** The same store, named as the user gave it (stdin's copy is a temporary file, shown as `-`). */
export function heapStoreNamed(store: HeapStore, file: string, name: string): HeapStore {
  if (file === name) return store;
  const rename = (s: string) => s.split(file).join(name);
  return {
    ...store,
    source: { ...store.source, path: name },
    warnings: store.warnings.map(rename),
    ...(store.cut !== undefined ? { cut: rename(store.cut) } : {}),
  };
}

/** The objects the analyses need, from an HPROF or an extract. `hooks`: see loadHprof (an extract's snapshot has no file to share, and is not asked). */
export async function openHeap(
  source: Exclude<HeapSource, { kind: 'v8-heapsnapshot' }>,
  plan: LoadPlan,
  onProgress?: ProgressListener,
  hooks?: LoadHooks,
): Promise<HeapStore> {
  // One case a kind: a kind added to HeapSource without its reader does not compile.
  switch (source.kind) {
    case 'dumpsleuth-heap':
      return readHeapSnapshot(source.file, source.opened);
    case 'hprof':
      return loadHprof(source.file, plan, onProgress, hooks, source.gzip);
  }
}

/** The class histogram; undefined for a snapshot that carries none. */
export async function heapHistogram(
  source: HeapSource,
  onProgress?: ProgressListener,
  heapDump?: number,
  maxGunzipBytes?: number,
): Promise<Histogram | undefined> {
  switch (source.kind) {
    case 'v8-heapsnapshot':
      return readV8HeapSnapshotHistogram(
        source.file,
        onProgress
          ? {
              onProgress: (bytesRead, totalBytes) =>
                onProgress(totalBytes === undefined ? { phase: 'heap', bytesRead } : { phase: 'heap', bytesRead, totalBytes }),
            }
          : {},
      );
    case 'dumpsleuth-heap': {
      const store = await readHeapSnapshot(source.file, source.opened);
      if (store.histogram === undefined) return undefined;
      return { ...store.histogram, source: source.file, format: 'dumpsleuth-heap', warnings: [...store.histogram.warnings, ...store.warnings] };
    }
    case 'hprof':
      return hprofHistogram(source.file, onProgress, heapDump, undefined, maxGunzipBytes);
  }
}
