/**
 * The memory analysis of one HPROF file, start to end: the object graph in one pass, the dominator
 * tree, the summary (biggest retainers, classes by retained size, leak suspects) and, for each
 * suspect, the shortest strong path from a GC root to where its memory accumulates (a second pass,
 * only when there is a suspect, for the field names on the path).
 */
import type { ProgressListener } from '../../input/open.js';
import type { MemorySummary } from '../../model/memory.js';
import type { FeedOptions } from '../hprof/byte-source.js';
import { dominatorTree, type DominatorTree } from './dominators.js';
import { hprofObjectGraph } from './hprof-graph.js';
import { dominatedLists, memorySummary, objectAt, type DominatedLists, type SummaryOptions } from './memory-summary.js';
import type { ObjectGraph } from './object-graph.js';
import { shortestStrongPath, stepNamesOfPaths } from './root-path.js';

export interface MemoryAnalysis {
  readonly graph: ObjectGraph;
  readonly tree: DominatorTree;
  readonly lists: DominatedLists;
  readonly summary: MemorySummary;
}

export interface MemoryAnalysisOptions extends SummaryOptions {
  readonly onProgress?: ProgressListener;
  readonly feed?: Omit<FeedOptions, 'onProgress' | 'tee'>;
  /** Look up each suspect's path from a GC root (a second pass over the file when there is one). */
  readonly suspectPaths?: boolean;
  /** Only for suspects retaining at least this many bytes (default: all). */
  readonly suspectPathMinBytes?: number;
}

export async function analyseMemory(file: string, options: MemoryAnalysisOptions = {}): Promise<MemoryAnalysis> {
  const graph = await hprofObjectGraph(file, options.onProgress, options.feed ?? {});
  options.onProgress?.({ phase: 'dominators', bytesRead: 0 });
  const tree = dominatorTree(graph);
  const lists = dominatedLists(graph, tree);
  let summary = memorySummary(graph, tree, options, lists);
  const wanted = (s: MemorySummary['suspects'][number]) => s.retained >= (options.suspectPathMinBytes ?? 0);
  if (options.suspectPaths === true && summary.suspects.some(wanted)) {
    const paths = summary.suspects.map((s) => (wanted(s) ? (shortestStrongPath(graph, s.accumulation.index) ?? []) : []));
    const names = await stepNamesOfPaths(file, graph, paths.filter((p) => p.length > 1), options.feed ?? {});
    let named = 0;
    summary = {
      ...summary,
      suspects: summary.suspects.map((s, k) => {
        const path = paths[k]!;
        if (!wanted(s)) return s;
        const via = path.length > 1 ? names[named++]! : [];
        return {
          ...s,
          path: path.map((v, i) => ({
            object: objectAt(graph, tree, v),
            ...(i > 0 ? { via: via[i - 1]! } : {}),
            ...(i === 0 && graph.rootKindOf.get(v) !== undefined ? { rootKind: graph.rootKindOf.get(v)! } : {}),
          })),
        };
      }),
    };
  }
  return { graph, tree, lists, summary };
}

/** The buffers of an analysis, to move it out of a worker without a copy. */
export function analysisBuffers(a: MemoryAnalysis): ArrayBuffer[] {
  const g = a.graph;
  const t = a.tree;
  const all = [g.ids, g.classOf, g.shallow, g.edgeStart, g.edges, g.roots, t.idom, t.retained, t.preorder, a.lists.start, a.lists.children].map((x) => x.buffer as ArrayBuffer);
  return [...new Set(all)];
}
