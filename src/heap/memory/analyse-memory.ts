/**
 * The memory analysis of one heap dump file (an HPROF, or a V8 .heapsnapshot), start to end: the
 * object graph read by the file's format in one pass, then the format-neutral analysis of
 * heap/graph/ (dominator tree, summary, the suspects' paths from GC roots), the paths' steps named by
 * the format (for an HPROF a second pass, only when there is a path to name, reads the field names).
 * For an HPROF, the memory waste too (heap/waste/): its facts gathered on the graph's pass, found
 * before the dominator tree (its facts let go before the tree's peak), its holders and values named
 * with the paths' steps.
 */
import { collectGarbage } from '../graph/collect-garbage.js';
import { analyseGraph, type GraphAnalysisOptions, type MemoryAnalysis, type NamedObjectGraph } from '../graph/heap-memory.js';
import type { ObjectGraph } from '../graph/object-graph.js';
import type { FeedOptions } from '../hprof/byte-source.js';
import { hprofObjectGraphIndexed } from '../hprof/graph/hprof-graph.js';
import { type NamesRead, stepNamesFromIndexedFile, stepNamesOfPaths } from '../hprof/graph/step-names.js';
import type { IndexedHprof } from '../hprof/object-index.js';
import { v8ObjectGraph } from '../v8/v8-graph.js';
import { type WasteDraft, wasteDraft, type WasteNames, type WasteNamesWanted, type WasteOptions } from '../waste/graph-waste.js';
import type { WasteFacts } from '../waste/waste-facts.js';
import { doesNotFitCounted, MemoryDoesNotFit, type MemoryLimit } from './budget.js';

export interface MemoryAnalysisOptions extends GraphAnalysisOptions {
  readonly feed?: Omit<FeedOptions, 'onProgress' | 'tee'>;
  /** What the file is (the caller has sniffed it): an HPROF by default. */
  readonly format?: 'hprof' | 'v8-heapsnapshot';
  /**
   * The same dump as the heap loader left it (see loadHprof's whileOpen): the steps' names are read
   * from the blocks of the paths' objects alone. On this thread only: it holds the loader's index and
   * metadata. Given with `graph`, built on the same load.
   */
  readonly indexed?: IndexedHprof;
  /** The dump's object graph, already built (on the heap loader's first pass, see DeferredMemoryAnalysis): no pass of its own. */
  readonly graph?: ObjectGraph;
  /** With `graph`: takes the memory waste's facts gathered on the same pass (once: then they are let go; none: no waste section). */
  readonly wasteFacts?: () => WasteFacts | undefined;
  /** Look for memory waste (HPROF): its facts gathered on the graph's own pass. */
  readonly waste?: boolean | WasteOptions;
  /**
   * For an HPROF whose size does not tell whether its analysis fits this limit (see memoryFits): its
   * objects and references are counted first, and the analysis stops with MemoryDoesNotFit when they need more.
   */
  readonly countFirst?: MemoryLimit;
}

export async function analyseMemory(file: string, options: MemoryAnalysisOptions = {}): Promise<MemoryAnalysis> {
  if (options.countFirst !== undefined && options.format !== 'v8-heapsnapshot' && options.graph === undefined) {
    const tooBig = await doesNotFitCounted(file, options.countFirst, options.feed?.heapDump);
    if (tooBig !== undefined) throw new MemoryDoesNotFit(tooBig);
  }
  const { named, waste } = await namedGraph(file, options);
  const analysis = await analyseGraph(named, options);
  if (waste === undefined) return analysis;
  return { ...analysis, summary: { ...analysis.summary, waste: await waste.finished() } };
}

/** The memory waste found on a graph, finished once its names are read (with the paths' steps, or on their own when there are none). */
interface PendingWaste {
  finished(): Promise<ReturnType<WasteDraft['finish']>>;
}

/** The object graph of a heap dump, with what names its paths' steps (and the memory waste's holders and values, in the same reading). */
async function namedGraph(file: string, options: MemoryAnalysisOptions): Promise<{ named: NamedObjectGraph; waste?: PendingWaste }> {
  if (options.format === 'v8-heapsnapshot') return { named: await v8ObjectGraph(file, options.onProgress) };
  const feed = options.feed ?? {};
  const wasteWanted = options.waste !== undefined && options.waste !== false;
  const own = options.graph === undefined ? await hprofObjectGraphIndexed(file, options.onProgress, feed, { waste: wasteWanted }) : undefined;
  const graph = options.graph ?? own!.graph;
  const indexed = options.indexed ?? own?.indexed;
  const facts = options.graph !== undefined ? options.wasteFacts?.() : own?.wasteFacts;
  const read = (paths: ReadonlyArray<readonly number[]>, wanted?: WasteNamesWanted): Promise<NamesRead> =>
    indexed !== undefined ? Promise.resolve(stepNamesFromIndexedFile(indexed, graph, paths, wanted)) : stepNamesOfPaths(file, graph, paths, feed, wanted);
  // Found now, before the dominator tree: its facts are let go before the tree's peak.
  const draft = facts !== undefined && wasteWanted ? wasteDraft(graph, facts, typeof options.waste === 'object' ? options.waste : {}) : undefined;
  // The facts and the draft's tables are dead now: freed before the dominator tree's arrays are made.
  if (draft !== undefined) collectGarbage();
  if (draft === undefined) return { named: { graph, stepNames: async (paths) => (await read(paths)).steps } };
  let names: WasteNames | undefined;
  const stepNames = async (paths: ReadonlyArray<readonly number[]>) => {
    const r = await read(paths, names === undefined ? draft.wanted : undefined);
    names ??= r.waste;
    return r.steps;
  };
  const finished = async () => draft.finish(names ?? (await read([], draft.wanted)).waste ?? { holders: [], texts: [] });
  return { named: { graph, stepNames }, waste: { finished } };
}
