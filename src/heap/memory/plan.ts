/**
 * The memory analysis of an incident's HPROF inputs, as the loading of an incident runs it: whether
 * to run it (by default only up to a size), where (a big heap on a worker, started ahead of the load;
 * a small one on the loading thread, once the heap is loaded), and finished into what the model
 * carries (the summary, or why there is none).
 */
import type { MemoryAnalysisOptions } from '../graph/heap-memory.js';
import { MemoryDoesNotFit } from '../graph/memory-need.js';
import type { ObjectGraph } from '../graph/object-graph.js';
import { type RunningMemoryAnalysis, startMemoryAnalysis } from './run-memory.js';
import type { HeapMemory } from '../heap-input.js';
import { threadNameOf } from '../heap-values.js';
import type { HeapView } from '../heap-view.js';
import { hprofBytesOf, hprofBytesToSizeFor } from '../hprof/byte-source.js';
import type { ClassMetadata } from '../hprof/class-metadata.js';
import { type HprofGraphBuilder, hprofGraphBuilder } from '../hprof/graph/hprof-graph.js';
import type { FirstPassEnd, LoadHooks, LoadPlan } from '../hprof/hprof-loader.js';
import type { IndexedHprof } from '../hprof/object-index.js';
import type { IdentifiedInput } from '../../input/identify.js';
import type { HeapMemoryModel, RetainedObject, RetainerNode } from '../../model/memory.js';
import type { ProgressEvent, ProgressListener } from '../../model/progress.js';
import { doesNotFit, memoryLimit, sizeTellsIt } from './budget.js';

/**
 * Whether `analyze` computes what holds the memory of an HPROF: by default when it fits the memory
 * it may take (memory-budget.ts), however big the heap, so the leak suspect of a big production heap
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

/**
 * The memory analysis of a heap analysed on the loading thread (a small one; in batch, any), riding
 * on the heap's load (loadHooks): the object graph is built from the records of the loader's first
 * pass, so the dump is parsed once for both, and the rest runs once the heap is loaded, with the
 * names of the paths' steps read from a few blocks of the plain file the loader indexed (its plain
 * copy of a gzip dump) rather than in one more pass over the dump. Run on the file itself when the
 * load was never asked (an extract).
 */
export class DeferredMemoryAnalysis {
  #running: RunningMemoryAnalysis | undefined;

  constructor(
    private readonly file: string,
    private readonly options: Omit<MemoryAnalysisOptions, 'onProgress' | 'indexed'>,
    private readonly onProgress?: ProgressListener,
  ) {}

  /**
   * What the heap loader is given to run this analysis (`onAnalysis`: told when it starts): the
   * object graph is built on the loader's first pass (the dump parsed once for both), the rest once
   * the heap is loaded.
   */
  loadHooks(onAnalysis?: () => void): LoadHooks {
    let builder: HprofGraphBuilder | undefined;
    const rider =
      this.options.format === 'v8-heapsnapshot'
        ? {}
        : { firstPass: (meta: ClassMetadata) => (builder = hprofGraphBuilder(hprofBytesToSizeFor(this.file), meta, false)).visitor };
    return {
      ...rider,
      whileOpen: async (indexed, firstPass) => {
        onAnalysis?.();
        this.#running ??= this.fromFirstPass(builder, firstPass, indexed);
        // Its failure is reported by finishHeapMemory, not by the load.
        await this.#running.done.catch(() => undefined);
      },
    };
  }

  /** The analysis of the graph the builder made on the load's first pass (none of a V8 snapshot: it reads its own), or why there is none. */
  private fromFirstPass(builder: HprofGraphBuilder | undefined, firstPass: FirstPassEnd, indexed: IndexedHprof | undefined): RunningMemoryAnalysis {
    if (firstPass.riderFailure !== undefined) return failed(firstPass.riderFailure.error);
    let graph: ObjectGraph | undefined;
    try {
      graph = builder?.finish(firstPass);
    } catch (e) {
      return failed(e);
    }
    return startMemoryAnalysis(
      this.file,
      { ...this.options, ...(indexed !== undefined ? { indexed } : {}), ...(graph !== undefined ? { graph } : {}) },
      true,
      this.onProgress,
    );
  }

  /** The analysis: the one run with the load, else one started now on the file itself. */
  get running(): RunningMemoryAnalysis {
    return (this.#running ??= startMemoryAnalysis(this.file, this.options, true, this.onProgress));
  }
}

/** An analysis that could not start (its graph could not be made): finishHeapMemory says why. */
function failed(e: unknown): RunningMemoryAnalysis {
  const done = Promise.reject(e instanceof Error ? e : new Error(String(e)));
  done.catch(() => undefined);
  return { done, cancel: () => undefined };
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
export function startHeapMemory(input: IdentifiedInput, name: string, plan: MemoryPlan, onProgress?: ProgressListener): HeapMemoryWork | undefined {
  const choice = plan.memory ?? 'auto';
  if (choice === 'never') return undefined;
  const file = input.file;
  const size = hprofBytesOf(input.fileBytes, input.gzip);
  const limit = choice === 'auto' || plan.maxMemoryBytes !== undefined ? memoryLimit(plan.maxMemoryBytes) : undefined;
  // A big heap near or past the limit has its objects counted first, in its worker (see countFirst);
  // a small one, riding on the load, is judged by its size.
  const counted = limit !== undefined && size > OWN_THREAD_MAX_BYTES && plan.memoryOnThisThread !== true && !sizeTellsIt(size, limit);
  const tooBig = limit !== undefined && !counted ? doesNotFit(size, limit) : undefined;
  if (tooBig !== undefined) return { where: 'skipped', reason: notComputed(tooBig, name) };
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
    feed,
    ...(plan.retainerTree === true ? { retainers: UI_RETAINER_TREE } : {}),
  };
  const progress = onProgress !== undefined ? (e: ProgressEvent) => onProgress(e.phase === 'heap' ? { ...e, phase: 'memory' } : e) : undefined;
  if (plan.memoryOnThisThread === true || size <= OWN_THREAD_MAX_BYTES)
    return { where: 'on-load', deferred: new DeferredMemoryAnalysis(file, options, progress) };
  return {
    where: 'worker',
    running: startMemoryAnalysis(file, { ...options, ...(counted && limit !== undefined ? { countFirst: limit } : {}) }, false, progress),
  };
}

/** Why the analysis was not run, and how to ask for it. */
function notComputed(tooBig: string, name: string): string {
  return `not computed: ${tooBig} (give --max-memory with more to run it anyway, or run \`dumpsleuth memory ${name}\` on a machine with more memory)`;
}

/** What the heap's load is given to carry this work (only an analysis on this thread rides on it). */
export function loadHooksOf(work: HeapMemoryWork | undefined, onAnalysis?: () => void): LoadHooks | undefined {
  return work?.where === 'on-load' ? work.deferred.loadHooks(onAnalysis) : undefined;
}

/** Stops a worker's analysis that is no longer wanted (the load failed, or the analysis ended early). */
export function cancelHeapMemory(work: HeapMemoryWork | undefined): void {
  if (work?.where === 'worker') work.running.cancel();
}

export async function finishHeapMemory(work: HeapMemoryWork, name: string): Promise<HeapMemory> {
  if (work.where === 'skipped') return { model: { input: name, skipped: work.reason } };
  const running = work.where === 'worker' ? work.running : work.deferred.running;
  try {
    const analysis = await running.done;
    return { model: { input: name, summary: analysis.summary, ...(analysis.retainers !== undefined ? { tree: analysis.retainers } : {}) }, analysis };
  } catch (e) {
    if (e instanceof MemoryDoesNotFit) return { model: { input: name, skipped: notComputed(e.message, name) } };
    return { model: { input: name, skipped: `the memory analysis failed: ${(e as Error).message}` } };
  }
}

/**
 * The memory model with each thread it lists named (a leak suspect that is a thread says which one):
 * the names of the Thread objects the heap's load read. Other objects are left as they are.
 */
export function withThreadNames(memory: HeapMemoryModel, view: HeapView): HeapMemoryModel {
  const named = new Map<string, string | undefined>();
  const nameOf = (o: RetainedObject): RetainedObject => {
    if (o.describes !== undefined) return o;
    let name = named.get(o.id);
    if (!named.has(o.id)) {
      const object = /^0x[0-9a-f]+$/i.test(o.id) ? view.object(Number.parseInt(o.id.slice(2), 16)) : undefined;
      const c = object !== undefined ? view.classOf(object) : undefined;
      name = c !== undefined && view.isA(c, 'java.lang.Thread') ? threadNameOf(view, object) : undefined;
      named.set(o.id, name);
    }
    return name !== undefined ? { ...o, threadName: name } : o;
  };
  const s = memory.summary;
  if (s === undefined) return memory;
  const node = (n: RetainerNode): RetainerNode => ({ ...n, object: nameOf(n.object), children: n.children.map(node) });
  return {
    ...memory,
    summary: {
      ...s,
      dominators: s.dominators.map(nameOf),
      suspects: s.suspects.map((x) => ({
        ...x,
        subject: nameOf(x.subject),
        accumulation: {
          ...x.accumulation,
          ...nameOf(x.accumulation),
          ...(x.accumulation.biggest !== undefined ? { biggest: x.accumulation.biggest.map(nameOf) } : {}),
        },
      })),
    },
    ...(memory.tree !== undefined ? { tree: memory.tree.map(node) } : {}),
  };
}
