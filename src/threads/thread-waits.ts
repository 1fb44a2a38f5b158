/**
 * What one thread holds and what it waits for, derived from its lock lines.
 * The same monitor listed as `waiting on` and `locked` (Object.wait) is released, not held.
 */
import type { LockRef, ThreadEntry } from '../model/thread-dump.js';

export type WaitKind = 'monitor-enter' | 'parking' | 'object-wait';

export interface ThreadWait {
  readonly kind: WaitKind;
  readonly lock: LockRef;
}

/**
 * Parked on something that is not a lock (a Condition, a latch, a hand-off queue such as the
 * SynchronousQueue a connection pool waits on, a future): the thread waits for a signal, like
 * Object.wait, not for an owner to let go.
 */
function isSignal(lock: LockRef): boolean {
  const c = lock.className;
  return c.endsWith('ConditionObject') || c.endsWith('ConditionNode') || c.endsWith('CountDownLatch$Sync') || !/(?:Sync|Lock|Worker|Mutex)$/.test(c);
}

const PARK_FRAME = /(?:^|\.)(?:Unsafe|LockSupport)\.park/;

export function waitOf(th: ThreadEntry): ThreadWait | null {
  let parking: ThreadWait | null = null;
  let objectWait: ThreadWait | null = null;
  for (const l of th.locks) {
    if (l.lock === null) continue;
    switch (l.kind) {
      case 'waiting-to-relock':
        // JDK 11-17 print "waiting to re-lock in wait()" under a thread still WAITING in Object.wait:
        // it has not been notified, so it waits for a signal, not for the monitor.
        if (th.state === 'WAITING' || th.state === 'TIMED_WAITING') {
          objectWait ??= { kind: 'object-wait', lock: l.lock };
          break;
        }
        return { kind: 'monitor-enter', lock: l.lock };
      case 'waiting-to-lock':
      case 'blocked-on':
        return { kind: 'monitor-enter', lock: l.lock };
      case 'parking':
        parking ??= { kind: 'parking', lock: l.lock };
        break;
      case 'waiting-on':
        objectWait ??= { kind: 'object-wait', lock: l.lock };
        break;
      default:
        break;
    }
  }
  // Parked on a Condition (or another non-lock) is waiting for a signal, not for a lock owner.
  if (parking && isSignal(parking.lock)) return { kind: 'object-wait', lock: parking.lock };
  if (parking) return parking;
  if (objectWait) {
    // ThreadInfo-style dumps say `waiting on` for a park blocker too.
    const top = th.frames[0]?.qualified ?? '';
    if (PARK_FRAME.test(top) && !isSignal(objectWait.lock)) return { kind: 'parking', lock: objectWait.lock };
    return objectWait;
  }
  return null;
}

const NOTHING_HELD: readonly LockRef[] = Object.freeze([]);

/** Whether any lock line says `locked` (a loop: it runs for every thread of a dump). */
function locksAny(locks: ThreadEntry['locks']): boolean {
  for (let k = 0; k < locks.length; k++) if (locks[k]!.kind === 'locked') return true;
  return false;
}

/** Monitors and ownable synchronizers this thread holds. */
export function heldLocks(th: ThreadEntry): readonly LockRef[] {
  const locks = th.locks;
  const ownable = th.ownableSynchronizers;
  // Most threads hold nothing; and a thread holds a handful of locks, so arrays beat sets here.
  if (ownable.length === 0 && !locksAny(locks)) return NOTHING_HELD;
  const held: LockRef[] = [];
  for (const l of locks) {
    if (l.kind !== 'locked' || !l.lock || !l.lock.id) continue;
    const id = l.lock.id;
    if (isReleased(locks, id) || isIn(held, id)) continue;
    held.push(l.lock);
  }
  for (const s of ownable) if (s.id && !isIn(held, s.id)) held.push(s);
  return held;
}

/** Whether the thread waits on monitor `id` (Object.wait released it). */
function isReleased(locks: ThreadEntry['locks'], id: string): boolean {
  for (const l of locks) if (l.kind === 'waiting-on' && l.lock !== null && l.lock.id === id) return true;
  return false;
}

function isIn(held: readonly LockRef[], id: string): boolean {
  for (const h of held) if (h.id === id) return true;
  return false;
}
