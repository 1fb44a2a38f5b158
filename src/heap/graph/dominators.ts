/**
 * Dominator tree and retained sizes of an ObjectGraph, MAT's semantics: a virtual root points to
 * the GC roots; an object's immediate dominator is the last object every path from the root to it
 * passes; its retained size is the shallow sizes of all it dominates. Objects the root does not
 * reach are left out and totalled. Semi-NCA (the semidominators of Lengauer-Tarjan, with path
 * compression, then each immediate dominator as the nearest common ancestor in the DFS tree),
 * iterative throughout, on typed arrays. Memory is what limits the heaps it can take, so each step
 * holds only what it reads: at most five Int32Arrays of n+2 and the predecessor lists at once (the
 * DFS and compression stacks grow as deep as they go; the immediate dominators overwrite the
 * semidominators), and the graph's own columns, which the steps read one after another, may be set
 * aside on disk meanwhile (ColumnsAside).
 */
import { collectGarbage } from './collect-garbage.js';
import type { ColumnsAside, GraphColumn } from './columns-aside.js';
import { doubled } from './doubled.js';
import type { ObjectGraph, SizeColumn } from './object-graph.js';

/** What the dominator tree says of each object's memory; its links are the immediate dominators (DominatorTree) or the dominated lists. */
export interface RetainedSizes {
  /** The virtual root's index: `objects` (one past the last object). */
  readonly root: number;
  /**
   * Retained size of each object, as `retained[v] * retainedUnit` (see retainedOf); 0 for unreachable
   * ones; `retained[root]` is the reachable total. In 32 bits when the heap's total allows it (in units
   * of 8 bytes where every size is a multiple of 8, as HotSpot's are), else as doubles.
   */
  readonly retained: SizeColumn;
  /** What an entry of `retained` is multiplied by to give bytes: 8, or 1. */
  readonly retainedUnit: number;
  readonly reachable: number;
  readonly unreachable: { readonly objects: number; readonly bytes: number };
}

/** The retained size of an object, in bytes. */
export function retainedOf(t: Pick<RetainedSizes, 'retained' | 'retainedUnit'>, v: number): number {
  return t.retained[v]! * t.retainedUnit;
}

export interface DominatorTree extends RetainedSizes {
  /** Immediate dominator of each object (the root for top-level dominators); -1 for unreachable ones. */
  readonly idom: Int32Array;
}

/**
 * `aside`: where the graph's columns go while the steps that do not read them run (its owner lends
 * them). They are back on the graph when this returns, or throws, but for `leaveAside`: then only the
 * shallow sizes are, and the owner takes the rest back when it needs them.
 */
export function dominatorTree(g: ObjectGraph, aside?: ColumnsAside<GraphColumn>, leaveAside = false): DominatorTree {
  let done = false;
  try {
    const tree = dominatorsOf(g, aside);
    done = true;
    return tree;
  } finally {
    if (!done || !leaveAside) aside?.takeBack(g);
  }
}

function dominatorsOf(g: ObjectGraph, aside: ColumnsAside<GraphColumn> | undefined): DominatorTree {
  const n = g.objects;
  const root = n;
  const total = n + 1;
  // Each step is a function of its own, its loops written out over locals. In one function, V8
  // compiled the first loop on its own and threw that code away where the next loop began (no type
  // feedback there yet), step after step; and with the graph read through `g` and each edge through a
  // small closure, the steps took two to three times as long. What a step returns and the next does
  // not read is not kept in a variable here, so the collector may take it; and the graph's columns
  // are read by the steps from `g`, never passed from here: an argument stays in this frame's
  // registers until it returns, which would keep a column set aside alive.
  aside?.putAside(g, ['ids', 'classOf', 'shallow']);
  // Each step lets go of arrays of hundreds of megabytes: collected at once, or they add up (see collectGarbage).
  if (aside !== undefined) collectGarbage();
  const dfn = new Int32Array(total); // object -> preorder number from 1 (0: not reached)
  const parent = new Int32Array(total + 1); // preorder number -> its DFS parent's
  const count = depthFirst(g, dfn, parent);
  const idomDfn = semiNca(g, count, dfn, parent, aside);
  collectGarbage();
  aside?.takeBack(g, ['shallow']);
  const shallow = g.shallow;
  const vertex = new Int32Array(count + 1); // preorder number -> object
  for (let v = 0; v < total; v++) if (dfn[v] !== 0) vertex[dfn[v]!] = v;
  const unreachableBytes = unreachedBytes(n, dfn, shallow);
  const { retained, unit } = retainedSizes(total, count, vertex, idomDfn, shallow);
  // The DFS parents are not needed past the immediate dominators: their array holds them by object.
  const idom = parent.subarray(0, n).fill(-1);
  for (let k = 2; k <= count; k++) idom[vertex[k]!] = vertex[idomDfn[k]!]!;
  return {
    root,
    idom,
    retained,
    retainedUnit: unit,
    reachable: count - 1,
    unreachable: { objects: n - (count - 1), bytes: unreachableBytes },
  };
}

/**
 * 1. Iterative DFS from the root: preorder numbers from 1 (0 = not reached) in `dfn`, and each
 * preorder number's parent's in `parent`. The root's successors are the GC roots; the stack keeps
 * each node's next edge (for the root, the next GC root). Returns the number of nodes reached.
 */
function depthFirst(g: ObjectGraph, dfn: Int32Array, parent: Int32Array): number {
  const { edgeStart, edges, roots } = g;
  const root = g.objects;
  const rootCount = roots.length;
  let stackNode: Int32Array = new Int32Array(1 << 16);
  let stackEdge: Int32Array = new Int32Array(1 << 16);
  let count = 0;
  let sp = 0;
  dfn[root] = ++count;
  stackNode[sp] = root;
  stackEdge[sp] = 0;
  sp++;
  while (sp > 0) {
    const v = stackNode[sp - 1]!;
    const e = stackEdge[sp - 1]!;
    const isRoot = v === root;
    if (e >= (isRoot ? rootCount : edgeStart[v + 1]!)) {
      sp--;
      continue;
    }
    stackEdge[sp - 1] = e + 1;
    const w = isRoot ? roots[e]! : edges[e]!;
    if (dfn[w] !== 0) continue;
    dfn[w] = ++count;
    parent[count] = dfn[v]!;
    if (sp === stackNode.length) {
      stackNode = doubled(stackNode);
      stackEdge = doubled(stackEdge);
    }
    stackNode[sp] = w;
    stackEdge[sp] = edgeStart[w]!;
    sp++;
  }
  return count;
}

function unreachedBytes(n: number, dfn: Int32Array, shallow: SizeColumn): number {
  let bytes = 0;
  for (let v = 0; v < n; v++) if (dfn[v] === 0) bytes += shallow[v]!;
  return bytes;
}

/** Predecessor lists in preorder numbers: the list of k is `preds[predStart[k] .. predStart[k + 1])`. */
interface Predecessors {
  readonly predStart: Int32Array;
  readonly preds: Int32Array;
}

/**
 * 2. Predecessors of reached objects, in dfn space (the root counts as a predecessor of each GC
 * root). One array of starts: each list's end is counted, then the list is filled from its end
 * backwards, which leaves its start in the same slot.
 */
function predecessors(g: ObjectGraph, count: number, dfn: Int32Array): Predecessors {
  const { edgeStart, edges, roots } = g;
  const n = g.objects;
  const rootCount = roots.length;
  const predStart = new Int32Array(count + 2);
  for (let k = 0; k < rootCount; k++) predStart[dfn[roots[k]!]!]!++;
  for (let v = 0; v < n; v++) {
    if (dfn[v] === 0) continue;
    for (let e = edgeStart[v]!, end = edgeStart[v + 1]!; e < end; e++) {
      const d = dfn[edges[e]!]!;
      if (d !== 0) predStart[d]!++;
    }
  }
  // Each slot k becomes the end of k's list, then, filled backwards, its start.
  for (let k = 1; k < predStart.length; k++) predStart[k]! += predStart[k - 1]!;
  const preds = new Int32Array(predStart[count + 1]!);
  const rootDfn = dfn[n]!;
  for (let k = 0; k < rootCount; k++) preds[--predStart[dfn[roots[k]!]!]!] = rootDfn;
  for (let v = 0; v < n; v++) {
    const from = dfn[v]!;
    if (from === 0) continue;
    for (let e = edgeStart[v]!, end = edgeStart[v + 1]!; e < end; e++) {
      const d = dfn[edges[e]!]!;
      if (d !== 0) preds[--predStart[d]!] = from;
    }
  }
  return { predStart, preds };
}

/**
 * 2 to 4: the predecessors, the semidominators, then the immediate dominators in their place (by
 * preorder number). The references' starts are set aside once the predecessors are made; the
 * references themselves stay: with them the semidominators' step holds 9 arrays of 4 bytes an
 * object, no more than the analysis holds at its end, and half the bytes would go to the file and back.
 * The predecessors' list bodies live in this frame only, and go when it returns; their starts become
 * the semidominators (see semidominators).
 */
function semiNca(g: ObjectGraph, count: number, dfn: Int32Array, parent: Int32Array, aside: ColumnsAside<GraphColumn> | undefined): Int32Array {
  const p = predecessors(g, count, dfn);
  if (aside !== undefined) {
    aside.putAside(g, ['edgeStart']);
    collectGarbage();
  }
  const semi = semidominators(count, p.predStart, p.preds, parent);
  return immediateDominators(count, parent, semi);
}

/**
 * 3. Semidominators, in decreasing dfn, with a path-compressed forest (`ancestor`; 0 = a tree root)
 * and the compression path on a stack of its own. Where Lengauer and Tarjan keep a label per node
 * (the node of least semidominator on its compressed path) and compare the labels' semidominators,
 * `best` keeps that least semidominator itself: the labels were read only through `semi`, and one
 * array does for both. Each semidominator is written, once its node is done, into the predecessor
 * starts' slot of that node, which is read for the last time one step later (as the end of the
 * list before it): the starts are returned as the semidominators, by preorder number (from 2).
 */
function semidominators(count: number, predStart: Int32Array, preds: Int32Array, parent: Int32Array): Int32Array {
  const best = new Int32Array(count + 1);
  const ancestor = new Int32Array(count + 1);
  let path: Int32Array = new Int32Array(1 << 16);
  // A node not yet done is its own semidominator, and so its own best.
  for (let k = 1; k <= count; k++) best[k] = k;
  // The semidominator of the node done in the step before (k + 1), waiting for its slot to be read.
  let semiAfter = 0;
  for (let k = count; k >= 2; k--) {
    const first = predStart[k]!;
    const end = predStart[k + 1]!;
    if (k < count) predStart[k + 1] = semiAfter;
    let semiK = k;
    for (let p = first; p < end; p++) {
      // EVAL(v): v's own when it is a forest root, else the least semidominator on its path to the
      // forest root, compressing that path (bottom-up, as the recursive COMPRESS does).
      const v = preds[p]!;
      if (ancestor[v] !== 0) {
        let depth = 0;
        let x = v;
        while (ancestor[ancestor[x]!] !== 0) {
          if (depth === path.length) path = doubled(path);
          path[depth++] = x;
          x = ancestor[x]!;
        }
        while (depth > 0) {
          const y = path[--depth]!;
          const a = ancestor[y]!;
          if (best[a]! < best[y]!) best[y] = best[a]!;
          ancestor[y] = ancestor[a]!;
        }
      }
      if (best[v]! < semiK) semiK = best[v]!;
    }
    best[k] = semiK;
    ancestor[k] = parent[k]!;
    semiAfter = semiK;
  }
  if (count >= 2) predStart[2] = semiAfter;
  return predStart;
}

/**
 * 4. Immediate dominators (by preorder number): the nearest ancestor in the DFS tree at or above the
 * semidominator, written over the semidominators (k's is read before it is replaced; the walk reads
 * only smaller numbers, already replaced).
 */
function immediateDominators(count: number, parent: Int32Array, semi: Int32Array): Int32Array {
  const idomDfn = semi;
  for (let k = 2; k <= count; k++) {
    const semiK = semi[k]!;
    let d = parent[k]!;
    while (d > semiK) d = idomDfn[d]!;
    idomDfn[k] = d;
  }
  return idomDfn;
}

/**
 * 5. Retained sizes, by object: children before parents (decreasing dfn). No sum exceeds the heap's
 * total, so when that total (in units of 8 bytes, where every size is a multiple of 8) fits 32 bits,
 * every sum does, exactly: 4 bytes an object where doubles take 8.
 */
function retainedSizes(total: number, count: number, vertex: Int32Array, idomDfn: Int32Array, shallow: SizeColumn): { retained: SizeColumn; unit: number } {
  let heapBytes = 0;
  let lowBits = 0;
  for (let v = 0; v < shallow.length; v++) {
    const s = shallow[v]!;
    heapBytes += s;
    lowBits |= s >>> 0;
  }
  const unit = (lowBits & 7) === 0 ? 8 : 1;
  const retained = heapBytes / unit < 4294967296 ? new Uint32Array(total) : new Float64Array(total);
  for (let k = 2; k <= count; k++) retained[vertex[k]!] = shallow[vertex[k]!]! / unit;
  for (let k = count; k >= 2; k--) retained[vertex[idomDfn[k]!]!]! += retained[vertex[k]!]!;
  return { retained, unit };
}
