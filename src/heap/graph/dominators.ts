/**
 * Dominator tree and retained sizes of an ObjectGraph, MAT's semantics: a virtual root points to
 * the GC roots; an object's immediate dominator is the last object every path from the root to it
 * passes; its retained size is the shallow sizes of all it dominates. Objects the root does not
 * reach are left out and totalled. Semi-NCA (the semidominators of Lengauer-Tarjan, with path
 * compression, then each immediate dominator as the nearest common ancestor in the DFS tree),
 * iterative throughout, on typed arrays: 7 Int32Arrays of n+2, the predecessor lists and the
 * retained sizes. Arrays of one step are reused by the next (the DFS stacks become the
 * semidominators and labels, the predecessor counts the forest), so a 36M-object heap fits in 3 GB.
 */
import type { ObjectGraph } from './object-graph.js';

export interface DominatorTree {
  /** The virtual root's index: `objects` (one past the last object). */
  readonly root: number;
  /** Immediate dominator of each object (the root for top-level dominators); -1 for unreachable ones. */
  readonly idom: Int32Array;
  /** Retained size of each object (0 for unreachable ones); `retained[root]` is the reachable total. */
  readonly retained: Float64Array;
  /** Reachable objects in DFS preorder from the root (the root first). */
  readonly preorder: Int32Array;
  readonly reachable: number;
  readonly unreachable: { readonly objects: number; readonly bytes: number };
}

export function dominatorTree(g: ObjectGraph): DominatorTree {
  const n = g.objects;
  const root = n;
  const total = n + 1;
  const { edgeStart, edges, roots, shallow } = g;
  // Each step is a function of its own, its loops written out over locals. In one function, V8
  // compiled the first loop on its own and threw that code away where the next loop began (no type
  // feedback there yet), step after step; and with the graph read through `g` and each edge through a
  // small closure, the steps took two to three times as long.
  const dfn = new Int32Array(total + 1); // +1: reused as the compression path
  const vertex = new Int32Array(total + 1); // dfn -> node
  const parent = new Int32Array(total + 1); // dfn -> parent's dfn
  const stackNode = new Int32Array(total + 1); // +1: reused as the semidominators, indexed 1..count
  const stackEdge = new Int32Array(total + 1);
  const count = depthFirst(root, edgeStart, edges, roots, dfn, vertex, parent, stackNode, stackEdge);
  const unreachableBytes = unreachedBytes(n, dfn, shallow);
  const { predStart, preds, spare } = predecessors(n, count, edgeStart, edges, roots, dfn);
  // The DFS stacks become the semidominators and labels, the write cursor the forest, dfn the path.
  const semi = semidominators(count, predStart, preds, parent, stackNode, stackEdge, spare.fill(0), dfn);
  const idomDfn = immediateDominators(count, parent, semi);
  const retained = retainedSizes(total, count, vertex, idomDfn, shallow);
  // The DFS parents are not needed past the immediate dominators: their array holds them by object.
  const idom = parent.subarray(0, n).fill(-1);
  for (let k = 2; k <= count; k++) idom[vertex[k]!] = vertex[idomDfn[k]!]!;
  return {
    root,
    idom,
    retained,
    preorder: vertex.subarray(1, count + 1),
    reachable: count - 1,
    unreachable: { objects: n - (count - 1), bytes: unreachableBytes },
  };
}

/**
 * 1. Iterative DFS from the root: preorder numbers from 1 (0 = not reached) in `dfn`, and `vertex`
 * and `parent` by preorder number. The root's successors are the GC roots; the stack keeps each
 * node's next edge (for the root, the next GC root). Returns the number of nodes reached.
 */
function depthFirst(
  root: number,
  edgeStart: Int32Array,
  edges: Int32Array,
  roots: Int32Array,
  dfn: Int32Array,
  vertex: Int32Array,
  parent: Int32Array,
  stackNode: Int32Array,
  stackEdge: Int32Array,
): number {
  const rootCount = roots.length;
  let count = 0;
  let sp = 0;
  dfn[root] = ++count;
  vertex[count] = root;
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
    vertex[count] = w;
    parent[count] = dfn[v]!;
    stackNode[sp] = w;
    stackEdge[sp] = edgeStart[w]!;
    sp++;
  }
  return count;
}

function unreachedBytes(n: number, dfn: Int32Array, shallow: Float64Array): number {
  let bytes = 0;
  for (let v = 0; v < n; v++) if (dfn[v] === 0) bytes += shallow[v]!;
  return bytes;
}

/**
 * 2. Predecessors of reached objects, in dfn space (the root counts as a predecessor of each GC
 * root): the list of preorder number k is preds[predStart[k] .. predStart[k + 1]). `spare`, the
 * write cursor, is free afterwards.
 */
function predecessors(
  n: number,
  count: number,
  edgeStart: Int32Array,
  edges: Int32Array,
  roots: Int32Array,
  dfn: Int32Array,
): { predStart: Int32Array; preds: Int32Array; spare: Int32Array } {
  const rootCount = roots.length;
  const predCount = new Int32Array(count + 2);
  for (let k = 0; k < rootCount; k++) predCount[dfn[roots[k]!]! + 1]!++;
  for (let v = 0; v < n; v++) {
    if (dfn[v] === 0) continue;
    for (let e = edgeStart[v]!, end = edgeStart[v + 1]!; e < end; e++) {
      const d = dfn[edges[e]!]!;
      if (d !== 0) predCount[d + 1]!++;
    }
  }
  for (let k = 1; k < predCount.length; k++) predCount[k]! += predCount[k - 1]!;
  const predStart = predCount.slice();
  const preds = new Int32Array(predCount[count + 1]!);
  const fill = predCount;
  const rootDfn = dfn[n]!;
  for (let k = 0; k < rootCount; k++) preds[fill[dfn[roots[k]!]!]!++] = rootDfn;
  for (let v = 0; v < n; v++) {
    const from = dfn[v]!;
    if (from === 0) continue;
    for (let e = edgeStart[v]!, end = edgeStart[v + 1]!; e < end; e++) {
      const d = dfn[edges[e]!]!;
      if (d !== 0) preds[fill[d]!++] = from;
    }
  }
  return { predStart, preds, spare: fill };
}

/**
 * 3. Semidominators, in decreasing dfn, with a path-compressed forest (`ancestor`, zeroed; 0 = a
 * tree root); `path` is scratch. Returns `semi` (by preorder number).
 */
function semidominators(
  count: number,
  predStart: Int32Array,
  preds: Int32Array,
  parent: Int32Array,
  semi: Int32Array,
  label: Int32Array,
  ancestor: Int32Array,
  path: Int32Array,
): Int32Array {
  semi[0] = 0;
  label[0] = 0;
  for (let k = 1; k <= count; k++) {
    semi[k] = k;
    label[k] = k;
  }
  for (let k = count; k >= 2; k--) {
    let semiK = semi[k]!;
    for (let p = predStart[k]!, end = predStart[k + 1]!; p < end; p++) {
      // EVAL(v): v itself when it is a forest root, else the label of least semidominator on its
      // path to the forest root, compressing that path (bottom-up, as the recursive COMPRESS does).
      const v = preds[p]!;
      let u = v;
      if (ancestor[v] !== 0) {
        let depth = 0;
        let x = v;
        while (ancestor[ancestor[x]!] !== 0) {
          path[depth++] = x;
          x = ancestor[x]!;
        }
        while (depth > 0) {
          const y = path[--depth]!;
          const a = ancestor[y]!;
          if (semi[label[a]!]! < semi[label[y]!]!) label[y] = label[a]!;
          ancestor[y] = ancestor[a]!;
        }
        u = label[v]!;
      }
      if (semi[u]! < semiK) semiK = semi[u]!;
    }
    semi[k] = semiK;
    ancestor[k] = parent[k]!;
  }
  return semi;
}

/** 4. Immediate dominators (by preorder number): the nearest ancestor in the DFS tree at or above the semidominator. */
function immediateDominators(count: number, parent: Int32Array, semi: Int32Array): Int32Array {
  const idomDfn = new Int32Array(count + 1);
  for (let k = 2; k <= count; k++) {
    let d = parent[k]!;
    while (d > semi[k]!) d = idomDfn[d]!;
    idomDfn[k] = d;
  }
  return idomDfn;
}

/** 5. Retained sizes, by object: children before parents (decreasing dfn). */
function retainedSizes(total: number, count: number, vertex: Int32Array, idomDfn: Int32Array, shallow: Float64Array): Float64Array {
  const retained = new Float64Array(total);
  for (let k = 2; k <= count; k++) retained[vertex[k]!] = shallow[vertex[k]!]!;
  for (let k = count; k >= 2; k--) retained[vertex[idomDfn[k]!]!]! += retained[vertex[k]!]!;
  return retained;
}
