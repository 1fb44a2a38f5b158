/**
 * Where a small heap's memory analysis runs (in batch, any heap's): on the loading thread, riding on
 * the heap loader (its hooks), so the dump is parsed once for both.
 */
import type { ProgressListener } from '../../model/progress.js';
import type { ObjectGraph } from '../graph/object-graph.js';
import { hprofBytesToSizeFor } from '../hprof/byte-source.js';
import type { ClassMetadata } from '../hprof/class-metadata.js';
import { type HprofGraphBuilder, hprofGraphBuilder } from '../hprof/graph/hprof-graph.js';
import type { FirstPassEnd, LoadHooks } from '../hprof/hprof-loader.js';
import type { IndexedHprof } from '../hprof/object-index.js';
import type { MemoryAnalysisOptions } from './analyse-memory.js';
import { type RunningMemoryAnalysis, startMemoryAnalysis } from './run-memory.js';

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
        : {
            firstPass: (meta: ClassMetadata) =>
              (builder = hprofGraphBuilder(hprofBytesToSizeFor(this.file), meta, false, { waste: wastes(this.options.waste) })).visitor,
          };
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
    const wasteFacts = builder !== undefined ? { wasteFacts: () => builder.takeWasteFacts() } : {};
    return startMemoryAnalysis(
      this.file,
      { ...this.options, ...(indexed !== undefined ? { indexed } : {}), ...(graph !== undefined ? { graph, ...wasteFacts } : {}) },
      true,
      this.onProgress,
    );
  }

  /** The analysis: the one run with the load, else one started now on the file itself. */
  get running(): RunningMemoryAnalysis {
    return (this.#running ??= startMemoryAnalysis(this.file, this.options, true, this.onProgress));
  }
}

/** Whether the options ask for memory waste. */
function wastes(waste: MemoryAnalysisOptions['waste']): boolean {
  return waste !== undefined && waste !== false;
}

/** An analysis that could not start (its graph could not be made): finishHeapMemory says why. */
function failed(e: unknown): RunningMemoryAnalysis {
  const done = Promise.reject(e instanceof Error ? e : new Error(String(e)));
  done.catch(() => undefined);
  return { done, cancel: () => undefined };
}
