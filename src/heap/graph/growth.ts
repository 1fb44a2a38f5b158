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

/**
 * Each object's place in a preorder walk of the dominator tree and the end of its subtree there (-1 for
 * the unreachable), and, per slot, the places of the objects whose class `slotOf` gives that slot, in
 * rising order as the walk meets them (no sort).
 */
interface Preorder {
  readonly pre: Int32Array;
  readonly end: Int32Array;
  readonly places: Int32Array[];
}

function preorder(g: Pick<ClassColumns, 'objects' | 'classOf'>, t: RetainedSizes, lists: DominatedLists, slotOf: Int32Array, slots: number): Preorder {
  const { start, children } = lists;
  const classOf = g.classOf;
  const sizes = new Int32Array(slots);
  for (let v = 0; v < g.objects; v++) {
    const slot = slotOf[classOf[v]!]!;
    if (slot >= 0) sizes[slot]!++;
  }
  const places = Array.from(sizes, (size) => new Int32Array(size));
  const filled = new Int32Array(slots);
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
    const slot = slotOf[classOf[w]!]!;
    if (slot >= 0) places[slot]![filled[slot]!++] = clock;
    pre[w] = clock++;
    if (sp === stack.length) {
      stack = doubled(stack);
      next = doubled(next);
    }
    stack[sp] = w;
    next[sp] = start[w]!;
    sp++;
  }
  // The unreachable are in no walk: each slot's list ends where its walk did.
  return { pre, end, places: places.map((p, k) => p.subarray(0, filled[k]!)) };
}

/** What classHolders reads of a graph: the classes of its objects (an older dump's analysis keeps no more, see heap/memory/growth.ts). */
export type ClassColumns = Pick<ObjectGraph, 'objects' | 'classOf' | 'classNames' | 'classObjectNames'>;

/** Where the reachable instances of one class sit in the dominator tree. */
export interface ClassHolder {
  readonly className: string;
  /** The holder's object index, or -1 when no object below the root dominates half of the instances. */
  readonly holder: number;
  /**
   * The classes of the objects from the root down the dominator tree to the holder (a class object as
   * the class it is): what stays the same between dumps of one program, where ids do not.
   */
  readonly shape: string;
  /** Instances under the holder, and of the class in all (reachable). */
  readonly instances: number;
  readonly ofInstances: number;
}

/**
 * For each class named, its holder (see the file's comment), from one preorder walk of the tree: the
 * instances of a class under an object are those whose preorder places fall in the object's subtree,
 * counted by two binary searches in their sorted places.
 */
export function classHolders(g: ClassColumns, t: RetainedSizes, lists: DominatedLists, classNames: readonly string[]): ClassHolder[] {
  // A slot per name asked for; a name may be several classes (one per class loader).
  const slotOf = new Int32Array(g.classNames.length).fill(-1);
  const classesOf = classNames.map((): number[] => []);
  g.classNames.forEach((name, c) => {
    const slot = classNames.indexOf(name);
    if (slot < 0) return;
    slotOf[c] = slot;
    classesOf[slot]!.push(c);
  });
  if (classesOf.every((c) => c.length === 0)) return classNames.map((className) => ({ className, holder: -1, shape: '', instances: 0, ofInstances: 0 }));
  const { pre, end, places: placesOf } = preorder(g, t, lists, slotOf, classNames.length);
  return classNames.map((className, slot) => {
    const classes = classesOf[slot]!;
    const places = placesOf[slot]!;
    const under = (v: number) => lowerBound(places, end[v]!) - lowerBound(places, pre[v]!);
    const total = places.length;
    const isInstance = (w: number) => classes.includes(g.classOf[w]!);
    // An object over half of the instances has, in its subtree's run of places, one of the two middle
    // ones: the holder is on the way from the root down to the instance at one of them.
    const low = total > 0 ? downTo(places[(total - 1) >> 1]!, pre, end, lists, t.root, (w) => under(w) * 2 >= total && !isInstance(w)) : [];
    const high = total > 0 ? downTo(places[total >> 1]!, pre, end, lists, t.root, (w) => under(w) * 2 >= total && !isInstance(w)) : [];
    const chain = high.length > low.length ? high : low;
    const v = chain.length > 0 ? chain[chain.length - 1]! : t.root;
    if (v === t.root) return { className, holder: -1, shape: '', instances: 0, ofInstances: total };
    return { className, holder: v, shape: chain.map((w) => classNameOf(g, w)).join(' > '), instances: under(v), ofInstances: total };
  });
}

/**
 * The objects from the root down the dominator tree towards the object at preorder place `place`, while
 * `keep` holds: the child on the way found by a binary search of the children's places (a node's
 * children are placed in the order of its list, so theirs rise along it; the root's list holds every
 * top-level object, too many to walk for each class).
 */
function downTo(place: number, pre: Int32Array, end: Int32Array, lists: DominatedLists, root: number, keep: (w: number) => boolean): number[] {
  const chain: number[] = [];
  let v = root;
  for (let depth = 0; depth < 1_000_000; depth++) {
    let lo = lists.start[v]!;
    let hi = lists.start[v + 1]! - 1;
    let child = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const w = lists.children[mid]!;
      if (pre[w]! <= place) {
        child = w;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (child < 0 || end[child]! <= place || !keep(child)) break;
    v = child;
    chain.push(v);
  }
  return chain;
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

/** An object's class, a class object as the class it is. */
function classNameOf(g: ClassColumns, v: number): string {
  return g.classObjectNames.get(v) ?? g.classNames[g.classOf[v]!]!;
}
