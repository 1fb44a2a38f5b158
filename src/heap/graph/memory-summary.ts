/**
 * What holds the memory, from a dominator tree: the biggest top-level dominators, classes by
 * retained size (a class retains what the set of its instances retains: those not dominated by
 * another instance of it, as MAT's histogram counts), and MAT's leak suspects: an object retaining
 * at least `suspectShare` of the heap, or a class whose top-level instances together do, each with
 * its accumulation point (follow the biggest dominated child while it keeps `bigDropRatio` of its
 * parent's retained size).
 */
import type { ClassRetained, LeakSuspect, MemorySummary, RetainedObject } from '../../model/memory.js';
import { type DominatorTree, retainedOf, type RetainedSizes } from './dominators.js';
import { doubled } from './doubled.js';
import { idOf, idText, type ObjectGraph } from './object-graph.js';
import { stackFramesOf } from './stack-frames.js';

export type { MemorySummary, RetainedObject } from '../../model/memory.js';

export interface SummaryOptions {
  readonly topDominators?: number;
  readonly topClasses?: number;
  /** MAT's leak-suspect threshold: 10 % of the heap. */
  readonly suspectShare?: number;
  /** MAT's big-drop ratio: 0.7. */
  readonly bigDropRatio?: number;
}

/**
 * The dominator tree's children lists, in CSR form. A list is put largest retained first when it is
 * first read in order (sortedChildren): the summary and the UI read a few hundred of the lists, and
 * sorting all of them (the virtual root's alone may hold 100,000 objects) took longer than building
 * the tree. Plain typed arrays, so the lists cross from a worker as they are.
 */
export interface DominatedLists {
  readonly start: Int32Array;
  readonly children: Int32Array;
  /** The nodes whose list has been sorted (few: those a summary or a reader opened; lists of one or none need no sort). */
  readonly sorted: Set<number>;
}

export function dominatedLists(g: ObjectGraph, t: Pick<DominatorTree, 'idom'>): DominatedLists {
  const n = g.objects;
  const idom = t.idom;
  // Each slot counts its list's end, then, the list filled from its end backwards, holds its start:
  // one array, where a cursor beside the starts would take another 4 bytes an object.
  const start = new Int32Array(n + 2);
  for (let v = 0; v < n; v++) {
    const d = idom[v]!;
    if (d >= 0) start[d]!++;
  }
  for (let k = 1; k < start.length; k++) start[k]! += start[k - 1]!;
  const children = new Int32Array(start[n + 1]!);
  // Backwards, so each list is in object order.
  for (let v = n - 1; v >= 0; v--) {
    const d = idom[v]!;
    if (d >= 0) children[--start[d]!] = v;
  }
  return { start, children, sorted: new Set() };
}

/** The objects `p` dominates directly, largest retained first (equal sizes in object order). */
export function sortedChildren(lists: DominatedLists, t: RetainedSizes, p: number): Int32Array {
  const list = lists.children.subarray(lists.start[p]!, lists.start[p + 1]!);
  if (list.length > 1 && !lists.sorted.has(p)) {
    list.sort((a, b) => retainedOf(t, b) - retainedOf(t, a) || a - b);
    lists.sorted.add(p);
  }
  return list;
}

export function objectAt(g: ObjectGraph, t: RetainedSizes, index: number): RetainedObject {
  const describes = g.classObjectNames.get(index);
  const stack = stackFramesOf(g, index);
  return {
    index,
    id: idText(g, idOf(g, index)),
    className: g.classNames[g.classOf[index]!]!,
    shallow: g.shallow[index]!,
    retained: retainedOf(t, index),
    ...(describes !== undefined ? { describes } : {}),
    ...(stack !== undefined ? { stackFrames: stack.frames, ...(stack.more > 0 ? { moreStackFrames: stack.more } : {}) } : {}),
  };
}

/** Per class: instances, shallow and retained bytes (top-level instances only), in one walk of the dominator tree. */
function classesByRetained(g: ObjectGraph, t: RetainedSizes, lists: DominatedLists): ClassRetained[] {
  const k = g.classNames.length;
  const instances = new Float64Array(k);
  const shallow = new Float64Array(k);
  const classOf = g.classOf;
  const objectShallow = g.shallow;
  for (let v = 0; v < g.objects; v++) {
    const c = classOf[v]!;
    instances[c]!++;
    shallow[c]! += objectShallow[v]!;
  }
  const retained = topLevelRetained(k, classOf, t, lists);
  const out: ClassRetained[] = [];
  for (let c = 0; c < k; c++)
    if (instances[c]! > 0) out.push({ className: g.classNames[c]!, instances: instances[c]!, shallow: shallow[c]!, retained: retained[c]! });
  return out.sort((a, b) => b.retained - a.retained || b.shallow - a.shallow || (a.className < b.className ? -1 : 1));
}

/**
 * Per class, what its top-level instances retain (those with no instance of the class above them):
 * depth-first over the dominator tree, counting each class's instances on the current path. A
 * function of its own, over locals: see dominatorTree.
 */
function topLevelRetained(classes: number, classOf: Int32Array, t: RetainedSizes, lists: DominatedLists): Float64Array {
  const { retained: objectRetained, retainedUnit: unit, root } = t;
  const retained = new Float64Array(classes);
  const { start, children } = lists;
  const onPath = new Int32Array(classes);
  // The path from the root and each node's next child: as deep as the tree, which is mostly shallow.
  let stack: Int32Array = new Int32Array(1 << 12);
  let next: Int32Array = new Int32Array(1 << 12);
  stack[0] = root;
  next[0] = start[root]!;
  let sp = 1;
  while (sp > 0) {
    const v = stack[sp - 1]!;
    const c = next[sp - 1]!;
    if (c >= start[v + 1]!) {
      sp--;
      if (v !== root) onPath[classOf[v]!]!--;
      continue;
    }
    next[sp - 1] = c + 1;
    const w = children[c]!;
    const cls = classOf[w]!;
    if (onPath[cls] === 0) retained[cls]! += objectRetained[w]! * unit;
    onPath[cls]!++;
    if (sp === stack.length) {
      stack = doubled(stack);
      next = doubled(next);
    }
    stack[sp] = w;
    next[sp] = start[w]!;
    sp++;
  }
  return retained;
}

/**
 * MAT's accumulation point: follow the biggest dominated child while it keeps `ratio` of its
 * parent's retained size. A linked structure (a queue's nodes, a list's entries) is walked no
 * further than its first link: each link dominates the rest, and the 20,000th node is not where
 * the memory is; the number of links is counted instead.
 */
function accumulationPoint(
  g: ObjectGraph,
  t: RetainedSizes,
  lists: DominatedLists,
  from: number,
  ratio: number,
  chain: number[] = [],
): LeakSuspect['accumulation'] {
  const biggestChild = (v: number) => {
    // A link of a chain dominates one object: no list to sort (a finalizer backlog is 100,000 links).
    const count = lists.start[v + 1]! - lists.start[v]!;
    if (count <= 1) return count === 1 ? lists.children[lists.start[v]!]! : -1;
    return sortedChildren(lists, t, v)[0]!;
  };
  let v = from;
  chain.push(v);
  for (let depth = 0; depth < 10_000; depth++) {
    const biggest = biggestChild(v);
    if (biggest < 0 || retainedOf(t, biggest) < retainedOf(t, v) * ratio) break;
    if (g.classOf[biggest] === g.classOf[v]) break;
    v = biggest;
    chain.push(v);
  }
  let links = 1;
  for (let w = biggestChild(v); w >= 0 && g.classOf[w] === g.classOf[v] && links < 100_000_000; w = biggestChild(w)) links++;
  const biggest = links > 1 ? [] : biggestHeld(lists, t, v).map((w) => objectAt(g, t, w));
  return {
    ...objectAt(g, t, v),
    dominated: lists.start[v + 1]! - lists.start[v]!,
    ...(links > 1 ? { chainLinks: links } : {}),
    ...(biggest.length > 0 ? { biggest } : {}),
  };
}

/**
 * The suspect with what the threads' stacks keep of it: the first object from the subject down to
 * the accumulation point (the dominator chain the accumulation walk took) that a frame's local
 * variable holds. Below the subject such an object is dominated by the thread whose stack holds it
 * (a thread's object is a GC root: nothing else can dominate its locals), so that frame keeps the memory.
 * A subject held by the stacks of several threads (an executor its workers run in) is not: the queue
 * or map below it is what the report is about.
 */
function withStackHolder(g: ObjectGraph, t: RetainedSizes, suspect: LeakSuspect, chain: readonly number[]): LeakSuspect {
  for (const v of chain) {
    // The subject is dominated by no thread: its frames keep it only when they are its GC root (a
    // dump with no object for their thread); else other threads' or classes' references may keep it too.
    if (v === suspect.subject.index && g.rootKindOf.get(v) !== 'java-frame') continue;
    const held = v === suspect.subject.index ? suspect.subject : v === suspect.accumulation.index ? suspect.accumulation : objectAt(g, t, v);
    if (held.stackFrames !== undefined) return { ...suspect, stackHolder: { ...held, stackFrames: held.stackFrames } };
  }
  return suspect;
}

/** Objects an accumulation point names as what it holds: up to this many, each retaining at least this share of it. */
const BIGGEST_HELD = 3;
const BIGGEST_HELD_MIN_SHARE = 0.05;

/**
 * The biggest objects `v` dominates directly, biggest first, in one pass over its children (a map's
 * table dominates millions: no sort).
 */
function biggestHeld(lists: DominatedLists, t: RetainedSizes, v: number): number[] {
  const floor = retainedOf(t, v) * BIGGEST_HELD_MIN_SHARE;
  const best: number[] = [];
  for (let i = lists.start[v]!; i < lists.start[v + 1]!; i++) {
    const w = lists.children[i]!;
    const r = retainedOf(t, w);
    if (r < floor || (best.length === BIGGEST_HELD && r <= retainedOf(t, best[BIGGEST_HELD - 1]!))) continue;
    let at = best.length === BIGGEST_HELD ? BIGGEST_HELD - 1 : best.length;
    while (at > 0 && retainedOf(t, best[at - 1]!) < r) {
      best[at] = best[at - 1]!;
      at--;
    }
    best[at] = w;
    best.length = Math.min(best.length, BIGGEST_HELD);
  }
  return best;
}

/** V8 node groups that are the program's code rather than its data (DevTools' names for them). */
const PROGRAM_CODE_CLASSES = new Set(['(code)', '(closure)', '(object shape)', '(compiled code)', '(system)']);

export function memorySummary(g: ObjectGraph, t: DominatorTree, options?: SummaryOptions): MemorySummary;
/** `lists`: the tree's dominated lists, when the caller has them (and has let the immediate dominators go). */
export function memorySummary(g: ObjectGraph, t: RetainedSizes, options: SummaryOptions, lists: DominatedLists): MemorySummary;
export function memorySummary(
  g: ObjectGraph,
  t: RetainedSizes & Partial<Pick<DominatorTree, 'idom'>>,
  options: SummaryOptions = {},
  lists: DominatedLists = dominatedLists(g, { idom: t.idom! }),
): MemorySummary {
  const heap = retainedOf(t, t.root);
  const share = options.suspectShare ?? 0.1;
  const ratio = options.bigDropRatio ?? 0.7;
  const top = sortedChildren(lists, t, t.root);
  const dominators = [...top.subarray(0, options.topDominators ?? 20)].map((v) => objectAt(g, t, v));
  const suspects: LeakSuspect[] = [];
  const single = new Set<number>();
  for (const v of top) {
    if (retainedOf(t, v) < heap * share) break; // largest first
    single.add(v);
    const subject = objectAt(g, t, v);
    const chain: number[] = [];
    const suspect: LeakSuspect = {
      kind: 'object',
      subject,
      className: subject.className,
      instances: 1,
      retained: subject.retained,
      share: subject.retained / heap,
      accumulation: accumulationPoint(g, t, lists, v, ratio, chain),
    };
    suspects.push(withStackHolder(g, t, suspect, chain));
  }
  // Group suspects: the other top-level dominators, by class. Class objects are not grouped, nor are
  // a JavaScript heap's compiled code, functions and object shapes: the classes (or functions) of a
  // program together are its code, not a leak (one that holds a share of the heap through its
  // statics or closure is a single suspect above).
  const byClass = new Map<number, { count: number; retained: number; biggest: number }>();
  for (const v of top) {
    if (single.has(v) || g.classObjectNames.has(v) || PROGRAM_CODE_CLASSES.has(g.classNames[g.classOf[v]!]!)) continue;
    const c = g.classOf[v]!;
    const e = byClass.get(c);
    if (e === undefined) byClass.set(c, { count: 1, retained: retainedOf(t, v), biggest: v });
    else {
      e.count++;
      e.retained += retainedOf(t, v);
    }
  }
  const classInstances = new Float64Array(g.classNames.length);
  for (let v = 0; v < g.objects; v++) classInstances[g.classOf[v]!]!++;
  for (const [c, e] of [...byClass].sort((a, b) => b[1].retained - a[1].retained)) {
    if (e.retained < heap * share || e.count < 2) continue;
    const chain: number[] = [];
    const suspect: LeakSuspect = {
      kind: 'class',
      subject: objectAt(g, t, e.biggest),
      className: g.classNames[c]!,
      instances: e.count,
      classInstances: classInstances[c]!,
      retained: e.retained,
      share: e.retained / heap,
      accumulation: accumulationPoint(g, t, lists, e.biggest, ratio, chain),
    };
    suspects.push(withStackHolder(g, t, suspect, chain));
  }
  let shallowBytes = 0;
  for (let v = 0; v < g.objects; v++) shallowBytes += g.shallow[v]!;
  return {
    objects: g.objects,
    reachableObjects: t.reachable,
    shallowBytes,
    retainedBytes: heap,
    unreachable: t.unreachable,
    roots: g.rootKinds,
    missingReferences: g.missingReferences,
    ...(g.sizeModel !== undefined ? { sizeModel: g.sizeModel } : {}),
    dominators,
    classes: classesByRetained(g, t, lists).slice(0, options.topClasses ?? 40),
    suspects,
  };
}
