/**
 * The lock waits of one dump as an index, built once per rule run: which contended lock each thread
 * waits for, and who waits, through any chain of lock waits, on a set of threads (what a deadlock
 * or a contended lock holds up). Walking the contended-lock list per thread instead is quadratic
 * on a dump where thousands of threads each wait on their own lock.
 */
import type { DeadlockModel, LockModel, Model, ThreadRef } from '../../model/model.js';
import type { ThreadDump } from '../../model/thread-dump.js';

export interface LockWaits {
  /** The contended lock a thread waits for, if any. */
  lockOf(thread: number): LockModel | undefined;
  /** Threads that wait, directly or through others, for one of `heads` (heads excluded). */
  heldUpBy(heads: readonly number[]): ThreadRef[];
  /** How many those are, without listing them (a lock with 100k waiters is counted, not copied). */
  heldUpCount(heads: readonly number[]): number;
}

export function lockWaits(model: Model, dump: number): LockWaits {
  // Locks by owner, not waiters by owner: a lock with 100k waiters costs one entry here.
  const ownedLocks = new Map<number, LockModel[]>();
  const locks: LockModel[] = [];
  for (const l of model.locks.contended) {
    if (l.dump !== dump) continue;
    locks.push(l);
    if (l.owner === null) continue;
    const list = ownedLocks.get(l.owner.thread);
    if (list === undefined) ownedLocks.set(l.owner.thread, [l]);
    else list.push(l);
  }
  // Which lock each thread waits for: built when first asked (the deadlock and contention rules never ask).
  let lockOfThread: Map<number, LockModel> | undefined;
  const walk = (heads: readonly number[], visit: (w: ThreadRef) => void): void => {
    // A thread waits for one lock at most, so it is in one lock's waiters: only owners need remembering.
    const seen = new Set<number>(heads);
    const queue = [...heads];
    for (let i = 0; i < queue.length; i++) {
      for (const l of ownedLocks.get(queue[i]!) ?? []) {
        for (const w of l.waiters) {
          if (seen.has(w.thread)) continue;
          visit(w);
          if (ownedLocks.has(w.thread)) {
            seen.add(w.thread);
            queue.push(w.thread);
          }
        }
      }
    }
  };
  return {
    lockOf(thread) {
      if (lockOfThread === undefined) {
        lockOfThread = new Map();
        for (const l of locks) for (const w of l.waiters) if (!lockOfThread.has(w.thread)) lockOfThread.set(w.thread, l);
      }
      return lockOfThread.get(thread);
    },
    heldUpBy(heads) {
      const out: ThreadRef[] = [];
      walk(heads, (w) => out.push(w));
      return out;
    },
    heldUpCount(heads) {
      let n = 0;
      walk(heads, () => n++);
      return n;
    },
  };
}

/** A getter of each dump's index, built on first use: one per dump for a whole rule's check. */
export function lockWaitsByDump(model: Model): (dump: number) => LockWaits {
  const byDump = new Map<number, LockWaits>();
  return (dump) => {
    let w = byDump.get(dump);
    if (w === undefined) byDump.set(dump, (w = lockWaits(model, dump)));
    return w;
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

/** How far a chain of waits is followed: past this the text says only that it goes on. */
const CHAIN_DEPTH = 5;

/**
 * What the thread others wait on is itself waiting for, followed as far as the dump shows it: the
 * lock it queues on and that lock's owner, in turn; and at the end of the chain what the last thread
 * waits for (a future, a latch, a condition, by its activity's reason) and who could complete it:
 * another thread that holds or waits on the same object, or nobody the dump shows.
 */
export function waitChain(model: Model, dump: number, from: ThreadRef, waits: LockWaits): string {
  const parts: string[] = [];
  const seen = new Set<number>([from.thread]);
  let at = from.thread;
  for (let depth = 0; depth < CHAIN_DEPTH; depth++) {
    const next = waits.lockOf(at);
    const owner = next?.owner;
    if (next === undefined || owner === null || owner === undefined || seen.has(owner.thread)) break;
    parts.push(`waits for ${next.lock.className} <${next.lock.id}> held by "${owner.name}"`);
    seen.add(owner.thread);
    at = owner.thread;
  }
  const th = model.dumps[dump]!.threads[at]!;
  const activity = model.activity[dump]![at]!;
  const waitingOn =
    th.state === 'WAITING' || th.state === 'TIMED_WAITING' ? th.locks.find((l) => l.kind === 'waiting-on' || l.kind === 'parking')?.lock : undefined;
  if (waitingOn === undefined || waitingOn === null || waitingOn.id === '') return parts.join(', which ');
  const threads = model.dumps[dump]!.threads;
  const completers = (holdersOf(model.dumps[dump]!).get(waitingOn.id) ?? []).filter((i) => i !== at).map((i) => `"${threads[i]!.name}"`);
  const last =
    `${parts.length > 0 ? `"${th.name}" ` : ''}${activity.reason}, on ${waitingOn.className} <${waitingOn.id}>: ` +
    (completers.length > 0
      ? `${completers.slice(0, 3).join(', ')} holds it and could complete it`
      : 'no thread in this dump holds it; whatever should signal or complete it is not running (look for the code that would)');
  return [...parts, last].join(', which ');
}

/** Per dump, built once when a chain first asks: the threads that hold (`- locked`) each object. */
const holdersByDump = new WeakMap<ThreadDump, Map<string, number[]>>();

function holdersOf(d: ThreadDump): Map<string, number[]> {
  let m = holdersByDump.get(d);
  if (m === undefined) {
    m = new Map();
    d.threads.forEach((th, i) => {
      for (const l of th.locks) {
        if (l.kind !== 'locked' || l.lock === null || l.lock.id === '') continue;
        const list = m!.get(l.lock.id);
        if (list === undefined) m!.set(l.lock.id, [i]);
        else if (list[list.length - 1] !== i) list.push(i);
      }
    });
    holdersByDump.set(d, m);
  }
  return m;
}
