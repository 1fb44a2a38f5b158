/**
 * The memory analysis of a heap's object graph, whatever format it was read from: the dominator
 * tree, the summary (biggest retainers, classes by retained size, leak suspects) and, for each
 * suspect, the shortest strong path from a GC root to where its memory accumulates, its steps named
 * by the format (heap/memory/ reads the graph of each format and calls this).
 */
import { tmpdir } from 'node:os';

import type { MemorySummary, PathStep, RetainerNode } from '../../model/memory.js';
import type { ProgressListener } from '../../model/progress.js';
import { classLoaderSummary, loaderTargets, redefinedGroups, threadLocalStatics } from './class-loaders.js';
import { collectGarbage } from './collect-garbage.js';
import { COLUMNS_ASIDE_MIN_BYTES, ColumnsAside, type GraphColumn } from './columns-aside.js';
import { dominatorTree, type RetainedSizes } from './dominators.js';
import { indexesOfIds } from './graph-queries.js';
import { type DominatedLists, dominatedLists, memorySummary, objectAt, type SummaryOptions } from './memory-summary.js';
import { graphBytes, type ObjectGraph } from './object-graph.js';
import { retainerTree, type RetainerTreeShape, treeIndexes, withPaths } from './retainer-tree.js';
import { shortestStrongPaths } from './root-path.js';
import { frameOfThreadHolding } from './stack-frames.js';

export interface MemoryAnalysis {
  readonly graph: ObjectGraph;
  /** The tree's retained sizes; its links are `lists` (the immediate dominators are let go once those are made). */
  readonly tree: RetainedSizes;
  readonly lists: DominatedLists;
  readonly summary: MemorySummary;
  /** With `pathToId`: the path from a GC root to that object (empty: no strong path), null when the dump has no such object. */
  readonly pathTo?: PathStep[] | null;
  /** With `retainers`: the top of the dominator tree, each node with its path from a GC root. */
  readonly retainers?: RetainerNode[];
  /** With `pathsAlso`: the paths from a GC root to the objects it chose, in its order (empty: none). */
  readonly alsoPaths?: PathStep[][];
}

/** A graph with what names the steps of its paths (a field, an array index): each format says how. */
export interface NamedObjectGraph {
  readonly graph: ObjectGraph;
  /** Per path, how each step holds the next object: one name per step but the last. */
  stepNames(paths: ReadonlyArray<readonly number[]>): Promise<string[][]>;
}

export interface GraphAnalysisOptions extends SummaryOptions {
  readonly onProgress?: ProgressListener;
  /** Look up each suspect's path from a GC root (a second pass over the file when there is one). */
  readonly suspectPaths?: boolean;
  /** Only for suspects retaining at least this many bytes (default: all). */
  readonly suspectPathMinBytes?: number;
  /** Also the path from a GC root to the object with this dump id (`memory --path`), in the same pass. */
  readonly pathToId?: number;
  /** Also the top of the dominator tree of this shape, each node with its path from a GC root (same pass). */
  readonly retainers?: RetainerTreeShape;
  /**
   * Objects whose paths from a GC root are also wanted, chosen once the summary is made (what holds
   * the classes that grew, see heap/memory/growth.ts): named in the same pass as the others.
   */
  readonly pathsAlso?: (analysis: Pick<MemoryAnalysis, 'graph' | 'tree' | 'lists' | 'summary'>) => readonly number[];
}

/**
 * The static that holds each ThreadLocal by which a loader's path leaves a thread, by the ThreadLocal's
 * index (`com.example.Plugin.CURRENT`), from the names of the [class, ThreadLocal] steps.
 */
function threadLocalFields(g: ObjectGraph, pairs: ReadonlyArray<readonly number[]>, names: ReadonlyArray<readonly string[]>): Map<number, string> {
  const out = new Map<number, string>();
  pairs.forEach(([cls, local], i) => {
    const via = names[i]?.[0] ?? '';
    const className = g.classObjectNames.get(cls!);
    if (via.startsWith('static ') && className !== undefined) out.set(local!, `${className}.${via.slice('static '.length)}`);
  });
  return out;
}

/** The analysis of a graph read from a heap dump, announcing each phase to `onProgress`. */
export async function analyseGraph(named: NamedObjectGraph, options: GraphAnalysisOptions = {}): Promise<MemoryAnalysis> {
  const graph = named.graph;
  await announce(options, 'dominators');
  const { tree, lists } = dominatedTree(graph);
  await announce(options, 'summary');
  const summary = memorySummary(graph, tree, options, lists);
  const wanted = (s: MemorySummary['suspects'][number]) => options.suspectPaths === true && s.retained >= (options.suspectPathMinBytes ?? 0);
  // The user's --path target, if it is an object of the dump, and the tree's nodes share the suspects' pass for names.
  const target = options.pathToId !== undefined ? indexesOfIds(graph, [options.pathToId]).get(options.pathToId) : undefined;
  const top = options.retainers !== undefined ? retainerTree(graph, tree, lists, options.retainers) : undefined;
  const suspectTargets = summary.suspects.filter(wanted).map((s) => s.accumulation.index);
  const treeTargets = top !== undefined ? treeIndexes(top) : [];
  // Classes defined by several loaders: each listed loader's path says what keeps it (same walk, same names).
  const redefined = redefinedGroups(graph, tree);
  const loaders = options.suspectPaths === true ? loaderTargets(redefined.groups) : [];
  const alsoTargets = options.pathsAlso?.({ graph, tree, lists, summary }) ?? [];
  // In this order: the paths are handed back in it.
  const beforeLoaders = [...suspectTargets, ...(target !== undefined ? [target] : []), ...treeTargets];
  const targets = [...beforeLoaders, ...loaders, ...alsoTargets];
  if (targets.length > 0) await announce(options, 'paths');
  // The statics holding the ThreadLocals of the loaders' paths are named in the same pass as the paths.
  const loaderSteps = (all: ReadonlyArray<readonly number[]>) =>
    threadLocalStatics(graph, all.slice(beforeLoaders.length, beforeLoaders.length + loaders.length));
  const { paths, extra } = targets.length > 0 ? await pathsWithListsAside(named, tree, lists, targets, loaderSteps) : { paths: [], extra: undefined };
  let k = 0;
  const suspects = summary.suspects.map((s) => (wanted(s) ? { ...s, path: paths[k++]! } : s));
  const pathTo = options.pathToId !== undefined ? (target !== undefined ? paths[k++]! : null) : undefined;
  const loaderPaths = new Map(loaders.map((v, i) => [v, paths[k + treeTargets.length + i]!]));
  const localStatics = extra !== undefined ? threadLocalFields(graph, extra.paths, extra.names) : new Map<number, string>();
  const classLoaders = classLoaderSummary(graph, tree, redefined, (v) => loaderPaths.get(v), localStatics);
  return {
    graph,
    tree,
    lists,
    summary: { ...summary, suspects, ...(classLoaders !== undefined ? { classLoaders } : {}) },
    ...(pathTo !== undefined ? { pathTo } : {}),
    ...(top !== undefined ? { retainers: withPaths(top, paths.slice(k, k + treeTargets.length)) } : {}),
    ...(options.pathsAlso !== undefined ? { alsoPaths: paths.slice(k + treeTargets.length + loaders.length) } : {}),
  };
}

/**
 * Tells the listener a phase starts, then gives the event loop a turn before its work: on the thread
 * of a screen (the UI's analysis of a small heap), the screen draws the phase's name before the work
 * holds the thread.
 */
async function announce(options: GraphAnalysisOptions, phase: string): Promise<void> {
  if (options.onProgress === undefined) return;
  options.onProgress({ phase, bytesRead: 0 });
  await new Promise((r) => setImmediate(r));
}

/**
 * The dominator tree as the analysis keeps it: the retained sizes and the dominated lists. The lists
 * are made while the graph's columns are still set aside, and the immediate dominators (4 bytes an
 * object) are let go before they come back: the peak stays that of the tree's own steps.
 */
function dominatedTree(graph: ObjectGraph): { tree: RetainedSizes; lists: DominatedLists } {
  const aside = columnsAsideFor(graph);
  try {
    return treeWithLists(graph, aside);
  } finally {
    collectGarbage();
    aside?.takeBack(graph);
    aside?.close();
  }
}

/** Here, not in dominatedTree: the immediate dominators must be in no frame that is still running when the columns come back. */
function treeWithLists(graph: ObjectGraph, aside: ColumnsAside<GraphColumn> | undefined): { tree: RetainedSizes; lists: DominatedLists } {
  const { idom, ...tree } = dominatorTree(graph, aside, true);
  collectGarbage();
  return { tree, lists: dominatedLists(graph, { idom }) };
}

/** Where a big graph's columns wait while the dominator steps run; none when the temporary folder takes no file (they stay in memory). */
function columnsAsideFor(g: ObjectGraph): ColumnsAside<GraphColumn> | undefined {
  return graphBytes(g) >= COLUMNS_ASIDE_MIN_BYTES ? columnsAsideIn(tmpdir()) : undefined;
}

function columnsAsideIn<K extends string>(dir: string): ColumnsAside<K> | undefined {
  try {
    return new ColumnsAside<K>(dir);
  } catch {
    return undefined;
  }
}

/**
 * The paths from the GC roots, with a big heap's dominated lists' starts set aside meanwhile and their
 * array lent to the walk for its parents (4 bytes an object, read by nothing on the way): a new array
 * made the walk the analysis's peak (1,454 MiB against 1,346 for the dominator step, on a heap of 36
 * million objects).
 */
async function pathsWithListsAside(
  source: NamedObjectGraph,
  tree: RetainedSizes,
  lists: DominatedLists,
  targets: readonly number[],
  more?: MoreSteps,
): Promise<NamedPaths> {
  const aside = graphBytes(source.graph) >= COLUMNS_ASIDE_MIN_BYTES ? columnsAsideIn<'start'>(tmpdir()) : undefined;
  try {
    const room = aside?.lend(lists, 'start');
    try {
      return await pathsFromGcRoots(source, tree, targets, room instanceof Int32Array ? room : undefined, more);
    } finally {
      if (room !== undefined) aside!.restore(lists, 'start', room);
    }
  } finally {
    aside?.close();
  }
}

/**
 * The shortest strong path from a GC root to each target, as steps a report shows (empty when no
 * strong path reaches it), with the field names of all the paths read in one more pass (or, from a
 * file the loader indexed, from the blocks of the paths' objects).
 */
async function pathsFromGcRoots(
  source: NamedObjectGraph,
  tree: RetainedSizes,
  targets: readonly number[],
  room?: Int32Array,
  more?: MoreSteps,
): Promise<NamedPaths> {
  const graph = source.graph;
  const paths = shortestStrongPaths(graph, targets, room).map((p) => p ?? []);
  const long = paths.filter((p) => p.length > 1);
  const extra = more?.(paths) ?? [];
  const all = [...long, ...extra];
  const names = all.length > 0 ? await source.stepNames(all) : [];
  let named = 0;
  const steps = paths.map((path) => {
    const via = path.length > 1 ? names[named++]! : [];
    return path.map((v, i) => ({
      object: objectAt(graph, tree, v),
      ...(i > 0 ? { via: localVia(graph, path[i - 1]!, v) ?? via[i - 1]! } : {}),
      ...(i === 0 && graph.rootKindOf.get(path[0]!) !== undefined ? { rootKind: graph.rootKindOf.get(path[0]!)! } : {}),
    }));
  });
  return { paths: steps, ...(extra.length > 0 ? { extra: { paths: extra, names: names.slice(long.length) } } : {}) };
}

/** More steps to name in the paths' pass, from the paths found (object indexes): each a short path of edges of the graph. */
type MoreSteps = (paths: ReadonlyArray<readonly number[]>) => number[][];

/** The paths as steps, and the more steps asked for with their names. */
interface NamedPaths {
  readonly paths: PathStep[][];
  readonly extra?: { readonly paths: number[][]; readonly names: string[][] };
}

/**
 * How a thread holds its local (`a local variable of com.acme.Export.run(Export.java:23)`): the frame
 * its stack's record names, where the format's field names know only an edge; undefined for any other step.
 */
function localVia(g: ObjectGraph, from: number, to: number): string | undefined {
  const hold = frameOfThreadHolding(g, from, to);
  return hold === undefined ? undefined : `a local variable of ${hold.frame ?? `frame ${hold.depth} of its stack`}`;
}

/** The buffers of an analysis, to move it out of a worker without a copy. */
export function analysisBuffers(a: MemoryAnalysis): ArrayBuffer[] {
  const g = a.graph;
  const t = a.tree;
  const all = [g.ids, g.classOf, g.shallow, g.edgeStart, g.edges, g.roots, t.retained, a.lists.start, a.lists.children].map((x) => x.buffer as ArrayBuffer);
  return [...new Set(all)];
}
