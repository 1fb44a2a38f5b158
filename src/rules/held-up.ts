/**
 * Who waits, directly or through others, on a thread: the chains of lock waits of one dump, walked
 * back from the threads at their heads. What a deadlock or a contended lock holds up.
 */
import type { Model, ThreadRef } from '../model/model.js';

/** Threads of `dump` that wait (through any chain of lock waits) for one of `heads`, heads excluded. */
export function threadsHeldUpBy(model: Model, dump: number, heads: readonly number[]): ThreadRef[] {
  const waitedBy = new Map<number, ThreadRef[]>();
  for (const l of model.locks.contended) {
    if (l.dump !== dump || l.owner === null) continue;
    const list = waitedBy.get(l.owner.thread) ?? [];
    for (const w of l.waiters) if (w.thread !== l.owner.thread) list.push(w);
    waitedBy.set(l.owner.thread, list);
  }
  const seen = new Set<number>(heads);
  const out: ThreadRef[] = [];
  const queue = [...heads];
  for (let i = 0; i < queue.length; i++) {
    for (const w of waitedBy.get(queue[i]!) ?? []) {
      if (seen.has(w.thread)) continue;
      seen.add(w.thread);
      out.push(w);
      queue.push(w.thread);
    }
  }
  return out;
}

/** The lock-contention subject of the contended lock a thread waits for in `dump`, if any. */
export function contendedLockOf(model: Model, dump: number, thread: number): { subject: string; owner: ThreadRef | null } | undefined {
  for (const l of model.locks.contended) {
    if (l.dump === dump && l.waiters.some((w) => w.thread === thread)) return { subject: `${l.lock.className}@${l.lock.id}`, owner: l.owner };
  }
  return undefined;
}
