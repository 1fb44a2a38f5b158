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
  const { edgeStart, edges } = g;
  // Successors of the virtual root: the GC roots.
  const succStart = (v: number) => (v === root ? 0 : edgeStart[v]!);
  const succEnd = (v: number) => (v === root ? g.roots.length : edgeStart[v + 1]!);
  const succ = (v: number, e: number) => (v === root ? g.roots[e]! : edges[e]!);

  // 1. Iterative DFS from the root: preorder numbers from 1 (0 = not reached).
  const dfn = new Int32Array(total + 1); // +1: reused as the compression path
  const vertex = new Int32Array(total + 1); // dfn -> node
  const parent = new Int32Array(total + 1); // dfn -> parent's dfn
  const stackNode = new Int32Array(total + 1); // +1: reused as the semidominators, indexed 1..count
  const stackEdge = new Int32Array(total + 1);
  let count = 0;
  let sp = 0;
  dfn[root] = ++count;
  vertex[count] = root;
  stackNode[sp] = root;
  stackEdge[sp] = succStart(root);
  sp++;
  while (sp > 0) {
    const v = stackNode[sp - 1]!;
    const e = stackEdge[sp - 1]!;
    if (e >= succEnd(v)) {
      sp--;
      continue;
    }
    stackEdge[sp - 1] = e + 1;
    const w = succ(v, e);
    if (dfn[w] !== 0) continue;
    dfn[w] = ++count;
    vertex[count] = w;
    parent[count] = dfn[v]!;
    stackNode[sp] = w;
    stackEdge[sp] = succStart(w);
    sp++;
  }
  let unreachableBytes = 0;
  for (let v = 0; v < n; v++) if (dfn[v] === 0) unreachableBytes += g.shallow[v]!;

  // 2. Predecessors of reached objects, in dfn space (the root counts as a predecessor of each GC root).
  const predCount = new Int32Array(count + 2);
  const countPred = (w: number) => predCount[dfn[w]! + 1]!++;
  for (let k = 0; k < g.roots.length; k++) countPred(g.roots[k]!);
  for (let v = 0; v < n; v++) {
    if (dfn[v] === 0) continue;
    for (let e = edgeStart[v]!; e < edgeStart[v + 1]!; e++) if (dfn[edges[e]!] !== 0) countPred(edges[e]!);
  }
  for (let k = 1; k < predCount.length; k++) predCount[k]! += predCount[k - 1]!;
  const predStart = predCount.slice();
  const preds = new Int32Array(predCount[count + 1]!);
  const fill = predCount; // reused as the write cursor
  const addPred = (from: number, w: number) => {
    preds[fill[dfn[w]!]!++] = dfn[from]!;
  };
  for (let k = 0; k < g.roots.length; k++) addPred(root, g.roots[k]!);
  for (let v = 0; v < n; v++) {
    if (dfn[v] === 0) continue;
    for (let e = edgeStart[v]!; e < edgeStart[v + 1]!; e++) if (dfn[edges[e]!] !== 0) addPred(v, edges[e]!);
  }

  // 3. Semidominators, in decreasing dfn, with a path-compressed forest (ancestor 0 = a tree root).
  const semi = stackNode;
  const label = stackEdge;
  const ancestor = fill.fill(0);
  semi[0] = 0;
  label[0] = 0;
  for (let k = 1; k <= count; k++) {
    semi[k] = k;
    label[k] = k;
  }
  const path = dfn; // dfn is not read past the predecessor lists
  const evaluate = (v: number): number => {
    if (ancestor[v] === 0) return v;
    // Compress the path from v up to the forest root, as the recursive COMPRESS does, bottom-up.
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
    return label[v]!;
  };
  for (let k = count; k >= 2; k--) {
    for (let p = predStart[k]!; p < predStart[k + 1]!; p++) {
      const u = evaluate(preds[p]!);
      if (semi[u]! < semi[k]!) semi[k] = semi[u]!;
    }
    ancestor[k] = parent[k]!;
  }

  // 4. Immediate dominators: the nearest ancestor in the DFS tree at or above the semidominator.
  const idomDfn = new Int32Array(count + 1);
  for (let k = 2; k <= count; k++) {
    let d = parent[k]!;
    while (d > semi[k]!) d = idomDfn[d]!;
    idomDfn[k] = d;
  }

  // 5. Retained sizes, children before parents (decreasing dfn), by object.
  const retained = new Float64Array(total);
  for (let k = 2; k <= count; k++) retained[vertex[k]!] = g.shallow[vertex[k]!]!;
  for (let k = count; k >= 2; k--) retained[vertex[idomDfn[k]!]!]! += retained[vertex[k]!]!;

  // The DFS parents are not needed past step 4: their array holds the immediate dominators by object.
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
