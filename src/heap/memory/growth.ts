/**
 * `memory --baseline`: what grew between heap dumps of one program. Each dump has its own memory
 * analysis (no pass beyond it): the class tables give the trend per class; the classes that grew most
 * get their holder in the newest heap, whose path from the GC roots is named in that analysis's own
 * pass for paths (growthPaths), and the same holder is looked up in each older heap, matched by its
 * place in the dominator tree (the classes from the root down to it), for its own growth.
 */
import type { ClassRetained, PathStep } from '../../model/memory.js';
import { change, type ClassTrend, type GrowthHolder, type GrowthMoment, type MemoryGrowth } from '../../model/memory-growth.js';
import { collectGarbage } from '../graph/collect-garbage.js';
import type { RetainedSizes } from '../graph/dominators.js';
import { retainedOf } from '../graph/dominators.js';
import { type ClassColumns, type ClassHolder, classHolders, classTrends } from '../graph/growth.js';
import type { MemoryAnalysis } from '../graph/heap-memory.js';
import { type DominatedLists, objectAt } from '../graph/memory-summary.js';
import { analyseMemory, type MemoryAnalysisOptions } from './analyse-memory.js';

/** Classes listed in the comparison, and how many of those that grew most get a holder looked up. */
const GROWTH_CLASSES = 40;
const HOLDER_CLASSES = 5;
/**
 * And how many of the program's own classes (outside the JDK) that grew, wherever they rank: byte
 * arrays, strings and map nodes of the JDK grow with any leak and may fill the first five, where the
 * program's class says what the leak is made of.
 */
const HOLDER_PROGRAM_CLASSES = 3;

/** The classes a MemoryAnalysis must list in full (summary.classes) for a comparison: every one. */
export const ALL_CLASSES = Number.POSITIVE_INFINITY;

type Analysed = Pick<MemoryAnalysis, 'graph' | 'tree' | 'lists' | 'summary'>;

/**
 * What an older dump's analysis keeps until the newest is analysed: its summary, and what finds a
 * holder (each object's class, the dominator tree's lists and retained sizes: 16 bytes an object), not
 * the graph's ids, sizes and references (20 more), so two analyses are not held whole at once.
 */
export interface KeptForGrowth {
  readonly graph: ClassColumns;
  readonly tree: RetainedSizes;
  readonly lists: DominatedLists;
  readonly summary: MemoryAnalysis['summary'];
}

/** The bytes an older dump's analysis keeps (see KeptForGrowth). */
export function keptBytes(k: KeptForGrowth): number {
  return k.graph.classOf.byteLength + k.tree.retained.byteLength + k.lists.start.byteLength + k.lists.children.byteLength;
}

function keptForGrowth(a: MemoryAnalysis): KeptForGrowth & Pick<MemoryAnalysis['graph'], 'cut' | 'warnings'> {
  const { objects, classOf, classNames, classObjectNames, cut, warnings } = a.graph;
  const { root, retained, retainedUnit, reachable, unreachable } = a.tree;
  return {
    graph: { objects, classOf, classNames, classObjectNames },
    tree: { root, retained, retainedUnit, reachable, unreachable },
    lists: a.lists,
    summary: a.summary,
    ...(cut !== undefined ? { cut } : {}),
    warnings,
  };
}

/**
 * The memory analysis of an older dump of `memory --baseline`, with every class in its table and
 * no paths looked up (the report shows the newest dump's), shrunk to what the comparison reads and
 * the rest collected before the next dump is read.
 */
export async function analyseBaselineMemory(
  file: string,
  options: Omit<MemoryAnalysisOptions, 'topClasses' | 'suspectPaths' | 'pathsAlso'>,
): Promise<KeptForGrowth & Pick<MemoryAnalysis['graph'], 'cut' | 'warnings'>> {
  const kept = await shrunk(file, options);
  collectGarbage();
  return kept;
}

/** Apart from analyseBaselineMemory: the whole analysis must be in no frame still running when the garbage is collected. */
async function shrunk(file: string, options: Omit<MemoryAnalysisOptions, 'topClasses' | 'suspectPaths' | 'pathsAlso'>) {
  return keptForGrowth(await analyseMemory(file, { ...options, topClasses: ALL_CLASSES }));
}

/** What the newest heap's analysis chose, for growthOf: filled by the pathsAlso hook of growthPaths. */
export interface GrowthChoice {
  trends: ClassTrend[];
  holders: Array<{ object: number; shape: string; classes: string[] }>;
  held: Map<string, { instances: number; ofInstances: number }>;
}

/**
 * The `pathsAlso` hook for the newest heap's analysis: from the older heaps' class tables and its own,
 * the classes that grew most and their holders, whose paths the analysis then names with its others.
 */
export function growthPaths(baselines: ReadonlyArray<readonly ClassRetained[]>, choice: GrowthChoice): (a: Analysed) => number[] {
  return (a) => {
    choice.trends = classTrends([...baselines, a.summary.classes]);
    const last = baselines.length;
    const growing = choice.trends.filter((c) => c.shallow[last]! > c.shallow[0]! || c.instances[last]! > c.instances[0]!);
    const program = growing.filter((c) => !PLATFORM_CLASS.test(c.className)).slice(0, HOLDER_PROGRAM_CLASSES);
    const grown = [...new Set([...growing.slice(0, HOLDER_CLASSES), ...program])];
    const byHolder = new Map<number, { shape: string; classes: string[] }>();
    for (const h of classHolders(
      a.graph,
      a.tree,
      a.lists,
      grown.map((c) => c.className),
    )) {
      choice.held.set(h.className, { instances: h.instances, ofInstances: h.ofInstances });
      if (h.holder < 0) continue;
      const e = byHolder.get(h.holder) ?? { shape: h.shape, classes: [] };
      e.classes.push(h.className);
      byHolder.set(h.holder, e);
    }
    choice.holders = [...byHolder].map(([object, e]) => ({ object, ...e }));
    return choice.holders.map((h) => h.object);
  };
}

/** The comparison, once every heap is analysed (oldest first, the newest with growthPaths' hook and its alsoPaths). */
export function growthOf(
  older: ReadonlyArray<KeptForGrowth & { readonly source: string; readonly timestampMs?: number; readonly cut?: string }>,
  newest: Analysed & { readonly source: string; readonly timestampMs?: number; readonly cut?: string },
  choice: GrowthChoice,
  holderPaths: readonly PathStep[][],
): MemoryGrowth {
  const analyses = [...older, newest];
  const moments: GrowthMoment[] = analyses.map((a) => ({
    source: a.source,
    ...(a.timestampMs !== undefined ? { timestampMs: a.timestampMs } : {}),
    objects: a.summary.objects,
    retainedBytes: a.summary.retainedBytes,
    ...(a.cut !== undefined ? { cut: a.cut } : {}),
  }));
  // Each older dump's holders of every class that has one in the newest, found in one walk of its tree.
  const classes = [...new Set(choice.holders.flatMap((h) => h.classes))];
  const olderHolders = older.map((a) => (classes.length > 0 ? classHolders(a.graph, a.tree, a.lists, classes) : []));
  const holders: GrowthHolder[] = choice.holders.map((h, k) => {
    const path = holderPaths[k] ?? [];
    const retained = [...olderHolders.map((found, m) => olderHolderRetained(older[m]!, found, h.shape)), retainedOf(newest.tree, h.object)];
    const heldBy = heldByOf(path);
    return {
      holds: h.classes.map((className) => ({ className, ...choice.held.get(className)! })),
      object: objectAt(newest.graph, newest.tree, h.object),
      ...(heldBy !== undefined ? { heldBy } : {}),
      path,
      retained,
    };
  });
  const growthOfHolder = (h: GrowthHolder) =>
    h.holds.reduce((sum, c) => sum + change(choice.trends.find((t) => t.className === c.className)?.shallow ?? []), 0);
  return {
    moments,
    classes: choice.trends.slice(0, GROWTH_CLASSES),
    changedClasses: choice.trends.length,
    holders: holders.sort((a, b) => growthOfHolder(b) - growthOfHolder(a)),
  };
}

/**
 * The retained bytes of the same holder in an older heap: the holder of the same classes there, when
 * it sits at the same place of the dominator tree (the same classes from the root down to it); null
 * when they sit elsewhere.
 */
function olderHolderRetained(a: KeptForGrowth, found: readonly ClassHolder[], shape: string): number | null {
  const same = found.find((h) => h.holder >= 0 && h.shape === shape);
  return same !== undefined ? retainedOf(a.tree, same.holder) : null;
}

/** The static field or thread that keeps a holder, from its path: the last static field along it, else the thread of a root. */
function heldByOf(path: readonly PathStep[]): string | undefined {
  for (let i = path.length - 1; i > 0; i--) {
    const owner = path[i - 1]!.object;
    const via = path[i]!.via;
    if (owner.describes !== undefined && via !== undefined && via.startsWith('static ')) return `${owner.describes}.${via.slice('static '.length)} (static)`;
  }
  const root = path[0];
  if (root === undefined) return undefined;
  if (root.object.threadName !== undefined) return `thread "${root.object.threadName}"`;
  if (root.rootKind === 'java-frame' || root.rootKind === 'jni-local') return `a local variable of a thread's frame (${root.object.className})`;
  return undefined;
}

/** What a heap file says of the program and moment it comes from, before its analysis. */
export interface HeapIdentity {
  readonly source: string;
  readonly kind: 'hprof' | 'v8-heapsnapshot';
  /** An HPROF's id size: 4 or 8, one per JVM. */
  readonly idSize?: number;
  /** When the dump was written, by its own header (HPROF). */
  readonly timestampMs?: number;
}

/** Why two heap files are not dumps of one program, older first, by what their files say; undefined when nothing says so. */
export function notOneProgramFormat(older: HeapIdentity, newer: HeapIdentity): string | undefined {
  const pair = `${older.source} and ${newer.source}`;
  const what = (k: HeapIdentity['kind']) => (k === 'hprof' ? 'a Java heap dump (HPROF)' : 'a V8 heap snapshot (Node.js/Chrome)');
  if (older.kind !== newer.kind) return `${pair} are not dumps of one program: ${older.source} is ${what(older.kind)}, ${newer.source} ${what(newer.kind)}`;
  if (older.idSize !== undefined && newer.idSize !== undefined && older.idSize !== newer.idSize)
    return `${pair} are not dumps of one JVM: their object ids are of ${older.idSize} and ${newer.idSize} bytes (a 32-bit and a 64-bit JVM)`;
  if (older.timestampMs !== undefined && newer.timestampMs !== undefined && newer.timestampMs < older.timestampMs)
    return (
      `${newer.source} was written before its baseline ${older.source}, by their headers ` +
      `(${new Date(newer.timestampMs).toISOString()} and ${new Date(older.timestampMs).toISOString()}): the older dump goes to --baseline`
    );
  return undefined;
}

/** Class names of the JDK (and arrays), which every Java program has: they tell nothing of which program a heap is. */
const PLATFORM_CLASS = /^(java|javax|jdk|sun|com\.sun)\.|\[\]$|^\(|^[a-z]+$/;

/** How few of the smaller heap's application classes the other may share before the two are called two programs. */
const SHARED_CLASSES_MIN = 0.5;

type ProgramClasses = { readonly graph: Pick<ClassColumns, 'classObjectNames'>; readonly summary: MemoryAnalysis['summary']; readonly source: string };

/** The classes of a heap outside the JDK: those with instances, and (HPROF) those loaded, whose class objects the dump holds. */
function applicationClasses(a: ProgramClasses): Set<string> {
  const names = [...a.summary.classes.map((c) => c.className), ...a.graph.classObjectNames.values()];
  return new Set(names.filter((n) => !PLATFORM_CLASS.test(n)));
}

/**
 * Why two analysed heaps are not of one program, from their classes: fewer than half of the
 * application classes (outside the JDK, loaded or with instances) of the one with fewer are in the other. A new version of one
 * program keeps most of its classes; two programs share few. Undefined when they share enough, or when
 * one has too few application classes to tell.
 */
export function notOneProgram(older: ProgramClasses, newer: ProgramClasses): string | undefined {
  const a = applicationClasses(older);
  const b = applicationClasses(newer);
  const [fewer, more] = a.size <= b.size ? [a, b] : [b, a];
  if (fewer.size < 3) return undefined;
  const shared = [...fewer].filter((n) => more.has(n)).length;
  if (shared >= fewer.size * SHARED_CLASSES_MIN) return undefined;
  const only = (x: Set<string>, y: Set<string>) =>
    [...x]
      .filter((n) => !y.has(n))
      .sort()
      .slice(0, 3)
      .join(', ');
  return (
    `${older.source} and ${newer.source} are not dumps of one program: they share ${shared} of the ${fewer.size} application classes ` +
    `(outside the JDK) of the one with fewer (only ${older.source} has ${only(a, b)}; only ${newer.source} has ${only(b, a)})`
  );
}
