/**
 * The memory analysis of a heap dump, planned: whether to run it (when it fits the memory it may
 * take, see budget.ts), where (a big heap on a worker, started ahead of the load; a small one, or any
 * in batch, on the loading thread, riding on the load: on-load.ts), and with what options. What
 * analyze, extract and the UI (through the analysis) all start; finish.ts turns it into what the
 * model carries.
 */
import type { ProgressEvent, ProgressListener } from '../../model/progress.js';
import { hprofBytesOf } from '../hprof/byte-source.js';
import type { LoadHooks, LoadPlan } from '../hprof/hprof-loader.js';
import { memoryFits, memoryLimit, notComputed } from './budget.js';
import { DeferredMemoryAnalysis } from './on-load.js';
import { type RunningMemoryAnalysis, startMemoryAnalysis } from './run-memory.js';

/**
 * Whether `analyze` computes what holds the memory of an HPROF: by default when it fits the memory
 * it may take (budget.ts), however big the heap, so the leak suspect of a big production heap
 * is in the first report; `always` also when it does not fit the machine's free memory.
 */
export type MemoryChoice = 'auto' | 'always' | 'never';

/**
 * Leak suspects retaining less than this get no path from a GC root in `analyze` (on a big heap the
 * names of the steps cost one more pass over the file; the leak-suspect rule does not judge suspects
 * this small by default, and `dumpsleuth memory --path` finds any path).
 */
const SUSPECT_PATH_MIN_BYTES = 1024 * 1024;

/**
 * Heaps up to this size are analysed on the loading thread, riding on the load (DeferredMemoryAnalysis):
 * a worker's start and its cold compiler (it compiles the HPROF scanner again) cost more than the
 * second core saves on a small heap: even a worker started at the first line of the process ends
 * no sooner than this thread does (bench/memory-cost-bench.mjs compares the two).
 */
const OWN_THREAD_MAX_BYTES = 48 * 1024 * 1024;

/** Where an incident's HPROF gets its memory analysis, or why it gets none. */
export type HeapMemoryWork =
  /** Started ahead, on a worker of its own, beside the load. */
  | { readonly where: 'worker'; readonly running: RunningMemoryAnalysis }
  /** On this thread, riding on the load: see DeferredMemoryAnalysis. */
  | { readonly where: 'on-load'; readonly deferred: DeferredMemoryAnalysis }
  | { readonly where: 'skipped'; readonly reason: string };

/** The heap dump as its identification found it (input/identify.ts's IdentifiedInput has these). */
export interface HeapFile {
  readonly file: string;
  /** The format the registry of src/input/formats.ts found; only its kind is read here. */
  readonly format?: { readonly kind: string } | undefined;
  /** Size on disk, compressed when gzip. */
  readonly fileBytes: number;
  readonly gzip: boolean;
}

/** What the memory analysis of an incident's heap dumps follows in its plan. */
export interface MemoryPlan extends Pick<LoadPlan, 'maxGunzipBytes' | 'inflateThreads' | 'heapDump'> {
  readonly memory?: MemoryChoice;
  /** `--max-memory`: the memory the analysis may take (default: what the machine has free). */
  readonly maxMemoryBytes?: number;
  /** Run it on the loading thread rather than a worker of its own (batch). */
  readonly memoryOnThisThread?: boolean;
  /** Also the top of the dominator tree with each node's path from a GC root (the UI's Memory screen). */
  readonly retainerTree?: boolean;
}

/**
 * The part of the dominator tree the UI shows: 25 top-level dominators and, six levels down, up to
 * 8 children each that retain at least 0.1 % of the heap (a few hundred nodes; each costs one path).
 */
const UI_RETAINER_TREE = { top: 25, children: 8, depth: 6, minShare: 0.001 } as const;

/**
 * `onProgress` hears the analysis as the `memory` command shows it: its reading of the file (as
 * phase `memory`, apart from the load's own reading), then the dominator tree, suspects and paths.
 */
export function startHeapMemory(input: HeapFile, name: string, plan: MemoryPlan, onProgress?: ProgressListener): HeapMemoryWork | undefined {
  const choice = plan.memory ?? 'auto';
  // Only an HPROF's is computed beside its load: an extract carries the summary computed when it was
  // made, and a V8 snapshot has no Java objects for analyze (`memory` analyses it on its own).
  if (choice === 'never' || input.format?.kind !== 'hprof') return undefined;
  const file = input.file;
  const size = hprofBytesOf(input.fileBytes, input.gzip);
  const onThisThread = plan.memoryOnThisThread === true || size <= OWN_THREAD_MAX_BYTES;
  // `always` without --max-memory runs whatever the machine has free.
  const limit = choice === 'auto' || plan.maxMemoryBytes !== undefined ? memoryLimit(plan.maxMemoryBytes) : undefined;
  // A big heap near or past the limit has its objects counted first, in its worker (see countFirst);
  // one riding on the load is judged by its size.
  const fit = limit !== undefined ? memoryFits(size, limit, !onThisThread) : undefined;
  if (fit?.fits === false) return { where: 'skipped', reason: notComputed(fit.why, name) };
  // One thread inflates for it: the graph pass reads slower than one thread inflates, and the load
  // beside it already keeps the other core busy.
  const feed = {
    ...(plan.maxGunzipBytes !== undefined ? { maxGunzipBytes: plan.maxGunzipBytes } : {}),
    ...(plan.heapDump !== undefined ? { heapDump: plan.heapDump } : {}),
    inflateThreads: 0,
  };
  const options = {
    suspectPaths: true,
    suspectPathMinBytes: SUSPECT_PATH_MIN_BYTES,
    topDominators: 10,
    topClasses: 15,
    waste: true,
    feed,
    ...(plan.retainerTree === true ? { retainers: UI_RETAINER_TREE } : {}),
  };
  const progress = onProgress !== undefined ? (e: ProgressEvent) => onProgress(e.phase === 'heap' ? { ...e, phase: 'memory' } : e) : undefined;
  if (onThisThread) return { where: 'on-load', deferred: new DeferredMemoryAnalysis(file, options, progress) };
  return {
    where: 'worker',
    running: startMemoryAnalysis(file, { ...options, ...(fit?.fits === 'count-first' ? { countFirst: limit! } : {}) }, false, progress),
  };
}

/**
 * The heap's load, run carrying this work: an analysis on this thread rides on it (its graph built
 * on the loader's first pass, the rest once the heap is loaded; `onAnalysis` is told when that
 * starts); a worker's analysis is stopped when the load fails, whose error is then the one reported.
 */
export async function loadCarrying<T>(
  work: HeapMemoryWork | undefined,
  load: (hooks: LoadHooks | undefined) => Promise<T>,
  onAnalysis?: () => void,
): Promise<T> {
  try {
    return await load(loadHooksOf(work, onAnalysis));
  } catch (e) {
    cancelHeapMemory(work);
    throw e;
  }
}

/** What the heap's load is given to carry this work (only an analysis on this thread rides on it). */
function loadHooksOf(work: HeapMemoryWork | undefined, onAnalysis?: () => void): LoadHooks | undefined {
  return work?.where === 'on-load' ? work.deferred.loadHooks(onAnalysis) : undefined;
}

/** Stops a worker's analysis that is no longer wanted (the load failed, or the analysis ended early). */
export function cancelHeapMemory(work: HeapMemoryWork | undefined): void {
  if (work?.where === 'worker') work.running.cancel();
}
