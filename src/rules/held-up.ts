/**
 * The lock waits of one dump as an index, built once per rule run: which contended lock each thread
 * waits for, and who waits, through any chain of lock waits, on a set of threads (what a deadlock
 * or a contended lock holds up). Walking the contended-lock list per thread instead is quadratic
 * on a dump where thousands of threads each wait on their own lock.
 */
import type { DeadlockModel, LockModel, Model, ThreadRef } from '../model/model.js';

export interface LockWaits {
  /** The contended lock a thread waits for, if any. */
  lockOf(thread: number): LockModel | undefined;
  /** Threads that wait, directly or through others, for one of `heads` (heads excluded). */
  heldUpBy(heads: readonly number[]): ThreadRef[];
}

export function lockWaits(model: Model, dump: number): LockWaits {
  const waitedBy = new Map<number, ThreadRef[]>();
  const lockOfThread = new Map<number, LockModel>();
  for (const l of model.locks.contended) {
    if (l.dump !== dump) continue;
    for (const w of l.waiters) if (!lockOfThread.has(w.thread)) lockOfThread.set(w.thread, l);
    if (l.owner === null) continue;
    const list = waitedBy.get(l.owner.thread) ?? [];
    for (const w of l.waiters) if (w.thread !== l.owner.thread) list.push(w);
    waitedBy.set(l.owner.thread, list);
  }
  return {
    lockOf: (thread) => lockOfThread.get(thread),
    heldUpBy(heads) {
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
    },
  };
}

/** The subject lock-contention findings give a lock. */
export function lockSubject(l: LockModel): string {
  return `${l.lock.className}@${l.lock.id}`;
}

/** The subject deadlock findings give a cycle. */
export function deadlockSubject(d: DeadlockModel): string {
  return d.threads.map((t) => t.name).join(' <-> ');
}

/** Per deadlock of the dump, the threads it holds up behind it (cycle members not included). */
export function heldUpByDeadlocks(model: Model, dump: number, waits: LockWaits): Array<{ deadlock: DeadlockModel; heldUp: ThreadRef[] }> {
  return model.locks.deadlocks.filter((d) => d.dump === dump).map((deadlock) => ({ deadlock, heldUp: waits.heldUpBy(deadlock.threads.map((t) => t.thread)) }));
}
