/**
 * Questions the incident analysis asks of an object graph: the indexes of a few dump ids, and which
 * of some objects a waiting thread's blocker is reachable from (through inbound references).
 */
import { idOf, type ObjectGraph } from './object-graph.js';

/**
 * Indexes of the given dump ids (those in the graph): through the graph's id table, else in one scan
 * of the ids. An id written twice (a damaged dump) finds its first object either way.
 */
export function indexesOfIds(g: ObjectGraph, ids: Iterable<number>): Map<number, number> {
  const wanted = new Set(ids);
  const out = new Map<number, number>();
  if (wanted.size === 0) return out;
  if (g.indexOfId !== undefined) {
    for (const id of wanted) {
      const v = g.indexOfId(id);
      if (v >= 0) out.set(id, v);
    }
    return out;
  }
  for (let v = 0; v < g.objects && out.size < wanted.size; v++) {
    const id = idOf(g, v);
    if (wanted.has(id) && !out.has(id)) out.set(id, v);
  }
  return out;
}

/** Inbound references in CSR form: who refers to each object. Built on demand (4 bytes per reference and per object). */
export interface InboundIndex {
  readonly start: Int32Array;
  readonly from: Int32Array;
}

export function inboundIndex(g: ObjectGraph): InboundIndex {
  const n = g.objects;
  const start = new Int32Array(n + 1);
  for (let e = 0; e < g.edges.length; e++) start[g.edges[e]! + 1]!++;
  for (let v = 0; v < n; v++) start[v + 1]! += start[v]!;
  const cursor = start.slice(0, n);
  const from = new Int32Array(g.edges.length);
  for (let v = 0; v < n; v++) for (let e = g.edgeStart[v]!; e < g.edgeStart[v + 1]!; e++) from[cursor[g.edges[e]!]!++] = v;
  return { start, from };
}

export interface BackwardLimits {
  /** References followed backwards; a step to an object of the same class (the next node of a list) is free. */
  readonly depth: number;
  /** Objects visited at most, per start. */
  readonly visits: number;
}

/**
 * The first of `targets` that refers to `start` through a chain of references (walked backwards,
 * breadth first), without passing through `stops`; -1 when none within the limits.
 */
export function referrerAmong(
  g: ObjectGraph,
  inbound: InboundIndex,
  start: number,
  targets: ReadonlySet<number>,
  stops: ReadonlySet<number>,
  limits: BackwardLimits,
): number {
  const seen = new Map<number, number>([[start, 0]]); // object -> depth
  const queue = [start];
  for (let head = 0; head < queue.length && seen.size < limits.visits; head++) {
    const v = queue[head]!;
    const depth = seen.get(v)!;
    for (let k = inbound.start[v]!; k < inbound.start[v + 1]!; k++) {
      const u = inbound.from[k]!;
      if (seen.has(u)) continue;
      if (targets.has(u)) return u;
      if (stops.has(u)) continue;
      const d = g.classOf[u] === g.classOf[v] ? depth : depth + 1;
      if (d > limits.depth) continue;
      seen.set(u, d);
      // Same-class steps first would need a deque; breadth first is enough at these depths.
      queue.push(u);
    }
  }
  return -1;
}
