/**
 * The memory analysis of one heap dump file (an HPROF, or a V8 .heapsnapshot), start to end: the
 * object graph read by the file's format in one pass, then the format-neutral analysis of
 * heap/graph/ (dominator tree, summary, the suspects' paths from GC roots), the paths' steps named by
 * the format (for an HPROF a second pass, only when there is a path to name, reads the field names).
 */
import { analyseGraph, type GraphAnalysisOptions, type MemoryAnalysis, type NamedObjectGraph } from '../graph/heap-memory.js';
import type { ObjectGraph } from '../graph/object-graph.js';
import type { FeedOptions } from '../hprof/byte-source.js';
import { hprofObjectGraphIndexed } from '../hprof/graph/hprof-graph.js';
import { stepNamesFromIndexedFile, stepNamesOfPaths } from '../hprof/graph/step-names.js';
import type { IndexedHprof } from '../hprof/object-index.js';
import { v8ObjectGraph } from '../v8/v8-graph.js';
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
  return analyseGraph(await namedGraph(file, options), options);
}

/** The object graph of a heap dump, with what names its paths' steps. */
async function namedGraph(file: string, options: MemoryAnalysisOptions): Promise<NamedObjectGraph> {
  if (options.format === 'v8-heapsnapshot') return v8ObjectGraph(file, options.onProgress);
  const feed = options.feed ?? {};
  const own = options.graph === undefined ? await hprofObjectGraphIndexed(file, options.onProgress, feed) : undefined;
  const graph = options.graph ?? own!.graph;
  const indexed = options.indexed ?? own?.indexed;
  if (indexed !== undefined) return { graph, stepNames: async (paths) => stepNamesFromIndexedFile(indexed, graph, paths) };
  return { graph, stepNames: (paths) => stepNamesOfPaths(file, graph, paths, feed) };
}
