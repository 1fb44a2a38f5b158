/**
 * What grew between heap dumps of one program, from each dump's class table and dominator tree:
 * per class the change in instances and bytes, and, for a class that grew, its holder: the deepest
 * object of the dominator tree that dominates at least half of its instances (the collection, or the
 * array inside it, the new objects were added to). Object ids do not match across dumps (a GC moves
 * objects), so an older dump's holder is matched by its path from the GC roots: the classes along it.
 */
import type { ClassRetained } from '../../model/memory.js';
import type { ClassTrend } from '../../model/memory-growth.js';
import type { RetainedSizes } from './dominators.js';
import { doubled } from './doubled.js';
import type { DominatedLists } from './memory-summary.js';
import type { ObjectGraph } from './object-graph.js';

/** Per class, its figures at each moment (tables oldest first), the classes that changed, biggest shallow growth first. */
export function classTrends(tables: ReadonlyArray<readonly ClassRetained[]>): ClassTrend[] {
  const byName = new Map<string, { instances: number[]; shallow: number[]; retained: number[] }>();
  tables.forEach((table, m) => {
    for (const c of table) {
      let e = byName.get(c.className);
      if (e === undefined) {
        const zeros = () => tables.map(() => 0);
        e = { instances: zeros(), shallow: zeros(), retained: zeros() };
        byName.set(c.className, e);
      }
      // A class name twice in one table (two class loaders' classes of one name): counted together, as jmap -histo lists them by name.
      e.instances[m]! += c.instances;
      e.shallow[m]! += c.shallow;
      e.retained[m]! += c.retained;
    }
  });
  const last = tables.length - 1;
  const out: ClassTrend[] = [];
  for (const [className, e] of byName) {
    if (e.instances[0] === e.instances[last] && e.shallow[0] === e.shallow[last] && e.retained[0] === e.retained[last]) continue;
    out.push({ className, ...e });
  }
  const growth = (c: ClassTrend) => c.shallow[last]! - c.shallow[0]!;
  const count = (c: ClassTrend) => c.instances[last]! - c.instances[0]!;
  return out.sort((a, b) => growth(b) - growth(a) || count(b) - count(a) || (a.className < b.className ? -1 : 1));
}

/** Each object's place in a preorder walk of the dominator tree and the end of its subtree there (-1 for the unreachable). */
interface Preorder {
  readonly pre: Int32Array;
  readonly end: Int32Array;
}

function preorder(t: RetainedSizes, lists: DominatedLists): Preorder {
  const { start, children } = lists;
  const n = t.root + 1;
  const pre = new Int32Array(n).fill(-1);
  const end = new Int32Array(n).fill(-1);
  let stack: Int32Array = new Int32Array(1 << 12);
  let next: Int32Array = new Int32Array(1 << 12);
  let clock = 0;
  stack[0] = t.root;
  next[0] = start[t.root]!;
  pre[t.root] = clock++;
  let sp = 1;
  while (sp > 0) {
    const v = stack[sp - 1]!;
    const c = next[sp - 1]!;
    if (c >= start[v + 1]!) {
      end[v] = clock;
      sp--;
      continue;
    }
    next[sp - 1] = c + 1;
    const w = children[c]!;
    pre[w] = clock++;
    if (sp === stack.length) {
      stack = doubled(stack);
      next = doubled(next);
    }
    stack[sp] = w;
    next[sp] = start[w]!;
    sp++;
  }
  return { pre, end };
}

/** Where the reachable instances of one class sit in the dominator tree. */
export interface ClassHolder {
  readonly className: string;
  /** The holder's object index, or -1 when no object below the root dominates half of the instances. */
  readonly holder: number;
  /** Instances under the holder, and of the class in all (reachable). */
  readonly instances: number;
  readonly ofInstances: number;
}

/**
 * For each class named, its holder (see the file's comment), from one preorder walk of the tree: the
 * instances of a class under an object are those whose preorder places fall in the object's subtree,
 * counted by two binary searches in their sorted places.
 */
export function classHolders(g: ObjectGraph, t: RetainedSizes, lists: DominatedLists, classNames: readonly string[]): ClassHolder[] {
  const wanted = new Map<number, number[]>();
  const indexOfName = new Map<string, number[]>();
  g.classNames.forEach((name, c) => {
    if (!classNames.includes(name)) return;
    indexOfName.set(name, [...(indexOfName.get(name) ?? []), c]);
    wanted.set(c, []);
  });
  if (wanted.size === 0) return classNames.map((className) => ({ className, holder: -1, instances: 0, ofInstances: 0 }));
  const { pre, end } = preorder(t, lists);
  for (let v = 0; v < g.objects; v++) {
    const places = wanted.get(g.classOf[v]!);
    if (places !== undefined && pre[v]! >= 0) places.push(pre[v]!);
  }
  return classNames.map((className) => {
    const classes = indexOfName.get(className) ?? [];
    const places = Int32Array.from(classes.flatMap((c) => wanted.get(c)!)).sort();
    const under = (v: number) => lowerBound(places, end[v]!) - lowerBound(places, pre[v]!);
    const total = places.length;
    let v = t.root;
    // Down the tree while one child holds at least half of the instances: the deepest such object.
    for (let depth = 0; depth < 100_000 && total > 0; depth++) {
      let best = -1;
      let bestCount = 0;
      for (let i = lists.start[v]!; i < lists.start[v + 1]!; i++) {
        const w = lists.children[i]!;
        const count = under(w);
        if (count > bestCount) {
          best = w;
          bestCount = count;
        }
      }
      if (best < 0 || bestCount * 2 < total || classes.includes(g.classOf[best]!)) break;
      v = best;
    }
    return { className, holder: v === t.root ? -1 : v, instances: v === t.root ? 0 : under(v), ofInstances: total };
  });
}

/** The first place in `sorted` holding `value` or more. */
function lowerBound(sorted: Int32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** What a path is made of, as dumps of one program share it: the class of each object along it (a class object as the class it is). */
export function pathShape(g: ObjectGraph, path: readonly number[]): string {
  return path.map((v) => g.classObjectNames.get(v) ?? g.classNames[g.classOf[v]!]!).join(' > ');
}
