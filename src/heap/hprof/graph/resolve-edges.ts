/**
 * After the pass: the references, met as dump ids, become object indexes in the graph's CSR arrays.
 */
import type { Referents } from '../../graph/object-graph.js';
import type { IdIndex } from './id-index.js';
import type { RefStore } from './pass-columns.js';

/**
 * The edges as object indexes, in CSR form: each object's own references resolved in place (an index
 * takes the 4 bytes its id/8 took), then moved right, from the last object back, to make room for
 * what is added to some objects (the references of late instances and each thread's locals).
 * References to ids not in the dump are counted and left out. Functions of their own, for V8 (see
 * dominatorTree).
 */
export function resolveEdges(
  n: number,
  starts: Int32Array,
  targets: RefStore,
  slotOfId: IdIndex,
  lateEdges: Map<number, number[]>,
  localsOf: Map<number, number[]>,
): { edgeStart: Int32Array; edges: Int32Array; missing: number } {
  const { idAt, into } = targets.resolution();
  const resolvedStart = new Int32Array(n + 1);
  let missing = resolveOwnEdges(n, starts, idAt, slotOfId, into, resolvedStart);
  const w = resolvedStart[n]!;
  const extras = new Map<number, number[]>();
  let extraCount = 0;
  for (const [i, lateIds] of lateEdges) {
    const resolved: number[] = [];
    for (const id of lateIds) {
      const t = slotOfId.get(id);
      if (t < 0) missing++;
      else resolved.push(t);
    }
    extras.set(i, resolved);
    extraCount += resolved.length;
  }
  for (const [thread, locals] of localsOf) {
    extras.set(thread, [...(extras.get(thread) ?? []), ...locals]);
    extraCount += locals.length;
  }
  let edges = into;
  if (edges.length < w + extraCount) {
    const bigger = new Int32Array(w + extraCount);
    bigger.set(edges.subarray(0, w));
    edges = bigger;
  }
  const edgeStart = spreadEdges(n, resolvedStart, edges, w + extraCount, extras);
  return { edgeStart, edges: edges.subarray(0, w + extraCount), missing };
}

/** Resolves each object's references into `into`, from its start; `resolvedStart` gets where each object's begin. Returns the ids not found. */
function resolveOwnEdges(n: number, starts: Int32Array, idAt: (e: number) => number, slotOfId: IdIndex, into: Int32Array, resolvedStart: Int32Array): number {
  let missing = 0;
  let w = 0;
  for (let i = 0; i < n; i++) {
    resolvedStart[i] = w;
    for (let e = starts[i]!, end = starts[i + 1]!; e < end; e++) {
      const t = slotOfId.get(idAt(e));
      if (t < 0) missing++;
      else into[w++] = t;
    }
  }
  resolvedStart[n] = w;
  return missing;
}

/** Moves each object's resolved edges right, adding its extras after them; returns where each object's edges start. */
function spreadEdges(n: number, resolvedStart: Int32Array, edges: Int32Array, total: number, extras: Map<number, number[]>): Int32Array {
  const outStart = new Int32Array(n + 1);
  // The objects with extras, last first: met in that order, with no lookup per object.
  const owners = [...extras.keys()].sort((a, b) => b - a);
  let nextOwner = 0;
  let end = total;
  outStart[n] = end;
  for (let i = n - 1; i >= 0; i--) {
    if (nextOwner < owners.length && owners[nextOwner] === i) {
      const ex = extras.get(i)!;
      for (let k = ex.length - 1; k >= 0; k--) edges[--end] = ex[k]!;
      nextOwner++;
    }
    for (let e = resolvedStart[i + 1]! - 1; e >= resolvedStart[i]!; e--) edges[--end] = edges[e]!;
    outStart[i] = end;
  }
  return outStart;
}

/** Each reference object's referent (referents not in the dump are left out); `references` ascend. */
export function referentsOf(references: readonly number[], referentIds: readonly number[], index: IdIndex): Referents {
  const from = new Int32Array(references.length);
  const to = new Int32Array(references.length);
  let k = 0;
  for (let r = 0; r < references.length; r++) {
    const t = index.get(referentIds[r]!);
    if (t < 0) continue;
    from[k] = references[r]!;
    to[k++] = t;
  }
  return { references: from.subarray(0, k), referents: to.subarray(0, k) };
}
