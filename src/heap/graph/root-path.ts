/**
 * The shortest path from the GC roots to an object, through strong references only: the referent
 * of a weak, soft, phantom or finalizer reference does not count, as MAT's default "Path to GC
 * roots" excludes them. Breadth-first over the graph's edges, whatever format the graph was built
 * from; the names of the steps come from the dump (hprof/graph/step-names.ts for HPROF).
 */
import { type ObjectGraph, referentOf } from './object-graph.js';

/**
 * Object indexes from a GC root to each target (undefined when no strong path reaches it), from
 * one breadth-first walk that stops once every target is reached. `room`: an array of at least one
 * entry an object the walk may write over for its parents (else it makes one).
 */
export function shortestStrongPaths(g: ObjectGraph, targets: readonly number[], room?: Int32Array): Array<number[] | undefined> {
  const n = g.objects;
  const parent = (room !== undefined && room.length >= n ? room.subarray(0, n) : new Int32Array(n)).fill(-2); // -2 unseen, -1 a root
  const queue = new IndexQueue();
  for (const r of g.roots) {
    if (parent[r] !== -2) continue;
    parent[r] = -1;
    queue.push(r);
  }
  const wanted = new Set(targets);
  for (const t of wanted) if (parent[t] !== -2) wanted.delete(t);
  while (queue.size > 0 && wanted.size > 0) {
    const v = queue.shift();
    const weakTarget = referentOf(g.referents, v);
    for (let e = g.edgeStart[v]!; e < g.edgeStart[v + 1]!; e++) {
      const w = g.edges[e]!;
      if (parent[w] !== -2 || w === weakTarget) continue;
      parent[w] = v;
      queue.push(w);
      wanted.delete(w);
    }
  }
  return targets.map((target) => {
    if (parent[target] === -2) return undefined;
    const path: number[] = [];
    for (let v = target; v !== -1; v = parent[v]!) path.push(v);
    return path.reverse();
  });
}

/**
 * The walk's queue: a ring that grows by doubling. It holds the frontier only, a small part of the
 * heap for most graphs, where a queue of every object seen would take 4 bytes an object at the peak
 * of the memory analysis.
 */
class IndexQueue {
  size = 0;
  private items = new Int32Array(1 << 12);
  private head = 0;

  push(v: number): void {
    if (this.size === this.items.length) this.grow();
    this.items[(this.head + this.size) & (this.items.length - 1)] = v;
    this.size++;
  }

  shift(): number {
    const v = this.items[this.head]!;
    this.head = (this.head + 1) & (this.items.length - 1);
    this.size--;
    return v;
  }

  /** Twice the room, the entries moved to its start in queue order. */
  private grow(): void {
    const items = new Int32Array(this.items.length * 2);
    items.set(this.items.subarray(this.head));
    items.set(this.items.subarray(0, this.head), this.items.length - this.head);
    this.items = items;
    this.head = 0;
  }
}
