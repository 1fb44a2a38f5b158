/**
 * Memory meets concurrency: what the queues and pools the heap reconstructors found retain, and
 * which parked threads wait for something queued in them. The idea: a thread parks on a blocker
 * (a future's waiter node, a latch, a task); when that blocker is reachable, through references
 * walked backwards, from a queue of pending work, the thread waits for that queued work, whatever
 * library put the future and the queue together.
 */
import { threadNameOf } from '../heap/heap-values.js';
import type { HeapView } from '../heap/heap-view.js';
import { idOf, type InboundIndex, inboundIndex, indexesOfIds, type MemoryAnalysis, referrerAmong, retainedOf } from '../heap/memory/memory-graph.js';

/**
 * How far back from a blocker to look: future <- callback <- call <- deque array <- deque is 5
 * steps, a task in a linked queue reaches its head through nodes of one class, which cost nothing.
 */
const BACKWARD = { depth: 8, visits: 20_000 };

export class HeapMemoryLinks {
  private inbound: InboundIndex | undefined;

  constructor(
    private readonly memory: MemoryAnalysis,
    private readonly view: HeapView,
  ) {}

  /** Retained bytes of each of these objects (by dump id), for those the graph has. */
  retainedOf(ids: readonly number[]): Map<number, number> {
    const out = new Map<number, number>();
    for (const [id, v] of indexesOfIds(this.memory.graph, ids)) out.set(id, retainedOf(this.memory.tree, v));
    return out;
  }

  /**
   * Names of the threads parked on a blocker that one of `queueIds` (objects holding pending work)
   * reaches, by queue. Threads are never walked through: each is the waiter, not the way.
   */
  threadsWaitingFor(queueIds: readonly number[], among: ReadonlySet<string>): Map<number, string[]> {
    const out = new Map<number, string[]>();
    if (queueIds.length === 0) return out;
    const g = this.memory.graph;
    const threads = this.view.instancesOf('java.lang.Thread');
    const blockers = threads.flatMap((t) => {
      // Only threads waiting inside a task: an idle worker parks on its own queue's condition, which the queue reaches.
      if (!among.has(threadNameOf(this.view, t) ?? '')) return [];
      const b = this.view.field(t, 'parkBlocker');
      return b !== null && b !== undefined && typeof b === 'object' && 'ref' in b && b.ref !== 0 ? [{ thread: t, blocker: b.ref }] : [];
    });
    if (blockers.length === 0) return out;
    const index = indexesOfIds(g, [...queueIds, ...threads.map((t) => t.id), ...blockers.map((b) => b.blocker)]);
    const targets = new Set(queueIds.flatMap((q) => (index.has(q) ? [index.get(q)!] : [])));
    if (targets.size === 0) return out;
    const stops = new Set(threads.flatMap((t) => (index.has(t.id) ? [index.get(t.id)!] : [])));
    this.inbound ??= inboundIndex(g);
    for (const { thread, blocker } of blockers) {
      const start = index.get(blocker);
      if (start === undefined || targets.has(start)) continue;
      const hit = referrerAmong(g, this.inbound, start, targets, stops, BACKWARD);
      if (hit < 0) continue;
      const queueId = idOf(g, hit);
      const name = threadNameOf(this.view, thread);
      if (name === undefined) continue;
      const list = out.get(queueId);
      if (list === undefined) out.set(queueId, [name]);
      else list.push(name);
    }
    return out;
  }
}
