/**
 * Classes defined by several class loaders: the redeployment leak, where each redeployment defines
 * the application's classes again in a new loader and something keeps the old loader alive (a
 * static of the host, a ThreadLocal of a pooled thread). From the graph's defining loaders (an
 * HPROF's CLASS DUMP names each class's loader), grouped by the set of loaders, so a web
 * application's thousands of classes are one entry; then, once the paths from the GC roots are
 * known, what keeps each loader alive, read from its path.
 */
import {
  type ClassLoaderSummary,
  type DefiningLoader,
  type LoaderHolder,
  type LoaderHolderGroup,
  LOADERS_LOOKED_AT,
  type RedefinedClass,
} from '../../model/class-loaders.js';
import type { PathStep } from '../../model/memory.js';
import type { RetainedSizes } from './dominators.js';
import { objectAt } from './memory-summary.js';
import { type ObjectGraph, referentOf } from './object-graph.js';

/** Groups listed (the most loaders first), and loaders listed per group (the biggest first). */
const REDEFINED_GROUPS = 5;
const LOADERS_PER_GROUP = LOADERS_LOOKED_AT;

/** Classes defined by the same set of at least two loaders: their names, and the loaders (object indexes). */
export interface RedefinedGroup {
  /** The class names, sorted; the first names the group. */
  readonly classNames: string[];
  /** The loaders' object indexes, biggest retained first. */
  readonly loaders: number[];
  /** The class objects of those names the loaders define. */
  readonly classObjects: number[];
}

/** The groups of classes defined by several loaders, most loaders first (then most classes), and how many there are in all. */
export function redefinedGroups(g: ObjectGraph, t: RetainedSizes, maxGroups = REDEFINED_GROUPS): { groups: RedefinedGroup[]; total: number } {
  const defining = g.definingLoaders;
  if (defining === undefined || defining.size === 0) return { groups: [], total: 0 };
  const loadersOfName = new Map<string, { loaders: Set<number>; classes: number[] }>();
  for (const [cls, loader] of defining) {
    const name = g.classObjectNames.get(cls);
    if (name === undefined) continue;
    let entry = loadersOfName.get(name);
    if (entry === undefined) loadersOfName.set(name, (entry = { loaders: new Set(), classes: [] }));
    entry.loaders.add(loader);
    entry.classes.push(cls);
  }
  const byLoaders = new Map<string, { names: string[]; loaders: number[]; classes: number[] }>();
  for (const [name, { loaders: set, classes }] of loadersOfName) {
    if (set.size < 2) continue;
    const loaders = [...set].sort((a, b) => a - b);
    const key = loaders.join(',');
    const group = byLoaders.get(key);
    if (group === undefined) byLoaders.set(key, { names: [name], loaders, classes: [...classes] });
    else {
      group.names.push(name);
      group.classes.push(...classes);
    }
  }
  const retained = (v: number) => t.retained[v]!;
  const groups = [...byLoaders.values()]
    .sort((a, b) => b.loaders.length - a.loaders.length || b.names.length - a.names.length || (a.names[0]! < b.names[0]! ? -1 : 1))
    .slice(0, maxGroups)
    .map((x) => ({ classNames: x.names.sort(), loaders: x.loaders.sort((a, b) => retained(b) - retained(a) || a - b), classObjects: x.classes }));
  return { groups, total: byLoaders.size };
}

/** The objects whose paths from a GC root the summary needs: each listed loader of each group. */
export function loaderTargets(groups: readonly RedefinedGroup[]): number[] {
  return [...new Set(groups.flatMap((x) => x.loaders.slice(0, LOADERS_PER_GROUP)))];
}

/** The JDK's entry of a thread's ThreadLocalMap: a weak reference to its ThreadLocal, its value strong. */
const THREAD_LOCAL_ENTRY = 'java.lang.ThreadLocal$ThreadLocalMap$Entry';

/**
 * For each path that leaves a thread by a ThreadLocalMap entry, the ThreadLocal of that entry (its
 * referent) and the class whose static holds it: [class object, ThreadLocal], a step the format can
 * name (`static CURRENT`) in the same pass as the paths. Found from the graph alone.
 */
export function threadLocalStatics(g: ObjectGraph, paths: ReadonlyArray<readonly number[]>): number[][] {
  const wanted = new Set<number>();
  for (const path of paths)
    for (const v of path)
      if (g.classNames[g.classOf[v]!] === THREAD_LOCAL_ENTRY) {
        const local = referentOf(g.referents, v);
        if (local >= 0) wanted.add(local);
      }
  if (wanted.size === 0) return [];
  const out: number[][] = [];
  for (const cls of g.classObjectNames.keys())
    for (let e = g.edgeStart[cls]!; e < g.edgeStart[cls + 1]!; e++) {
      const w = g.edges[e]!;
      if (wanted.has(w)) {
        out.push([cls, w]);
        wanted.delete(w);
      }
    }
  return out;
}

/**
 * What keeps a loader alive, from its path: the holder nearest the loader, a static field of a
 * class defined by none of the group's loaders or a thread's ThreadLocalMap; else a thread's stack,
 * else the GC root. `localStatic`: the static holding a ThreadLocal, by the ThreadLocal's index.
 */
function holderOf(g: ObjectGraph, path: readonly PathStep[], group: ReadonlySet<number>, localStatic: ReadonlyMap<number, string>): LoaderHolder | undefined {
  if (path.length === 0) return undefined;
  for (let k = path.length - 1; k > 0; k--) {
    const from = path[k - 1]!.object;
    const via = path[k]!.via ?? '';
    if (via.startsWith('static ') && from.describes !== undefined && !group.has(g.definingLoaders?.get(from.index) ?? -1))
      return { kind: 'static', field: `${from.describes}.${via.slice('static '.length)}` };
    if (via === 'threadLocals' || via === 'inheritableThreadLocals') {
      const entry = path.findIndex((st, j) => j > k && st.via === 'value');
      const local = entry > 0 ? referentOf(g.referents, path[entry - 1]!.object.index) : -1;
      const field = local >= 0 ? localStatic.get(local) : undefined;
      return { kind: 'thread-local', holder: from, ...(field !== undefined ? { field } : {}) };
    }
  }
  const root = path[0]!;
  if (root.rootKind === 'thread' && path.length > 1 && path[1]!.via === 'a local variable of its stack') return { kind: 'thread-stack', holder: root.object };
  return { kind: 'gc-root', holder: root.object, ...(root.rootKind !== undefined ? { rootKind: root.rootKind } : {}) };
}

/** The summary of the groups, each loader with its path and holder (`pathOf`: the path looked up for a loader, undefined when not). */
export function classLoaderSummary(
  g: ObjectGraph,
  t: RetainedSizes,
  found: { groups: readonly RedefinedGroup[]; total: number },
  pathOf: (loader: number) => readonly PathStep[] | undefined,
  localStatic: ReadonlyMap<number, string>,
): ClassLoaderSummary | undefined {
  // A dump that names defining loaders and has none defining a class twice says so; a format without loaders says nothing.
  if (found.groups.length === 0) return g.definingLoaders !== undefined ? { classes: [], moreClasses: 0 } : undefined;
  const classes = found.groups.map((x): RedefinedClass => {
    const group = new Set(x.loaders);
    const loaders = x.loaders.slice(0, LOADERS_PER_GROUP).map((v): DefiningLoader => {
      const path = pathOf(v);
      const keptBy = path !== undefined ? holderOf(g, path, group, localStatic) : undefined;
      return { loader: objectAt(g, t, v), ...(keptBy !== undefined ? { keptBy } : {}), ...(path !== undefined ? { path } : {}) };
    });
    const loaderClasses = new Map<string, number>();
    for (const v of x.loaders) {
      const name = g.classNames[g.classOf[v]!]!;
      loaderClasses.set(name, (loaderClasses.get(name) ?? 0) + 1);
    }
    return {
      className: x.classNames[0]!,
      sameLoadersClasses: x.classNames.length - 1,
      loaderCount: x.loaders.length,
      loaderClasses: [...loaderClasses].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([name]) => name),
      retained: x.loaders.reduce((sum, v) => sum + t.retained[v]! * t.retainedUnit, 0),
      classes: x.classObjects.length,
      classesRetained: x.classObjects.reduce((sum, v) => sum + t.retained[v]! * t.retainedUnit, 0),
      loaders,
      keptBy: holderGroups(loaders),
    };
  });
  return { classes, moreClasses: found.total - found.groups.length };
}

/** The loaders grouped by holder (a static field; a thread-local by thread and ThreadLocal; a root by its object), most loaders first. */
export function holderGroups(loaders: readonly DefiningLoader[]): LoaderHolderGroup[] {
  const byKey = new Map<string, { holder: LoaderHolder | null; loaders: number; retained: number }>();
  for (const l of loaders) {
    const h = l.keptBy ?? null;
    const key = h === null ? 'none' : `${h.kind} ${h.field ?? ''} ${h.holder?.id ?? ''}`;
    const group = byKey.get(key);
    if (group === undefined) byKey.set(key, { holder: h, loaders: 1, retained: l.loader.retained });
    else {
      group.loaders++;
      group.retained += l.loader.retained;
    }
  }
  return [...byKey.values()].sort((a, b) => b.loaders - a.loaders || b.retained - a.retained);
}
