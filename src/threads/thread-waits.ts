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

const PARK_FRAME = /(?:^|\.)(?:Unsafe|LockSupport)\.park/;

export function waitOf(th: ThreadEntry): ThreadWait | null {
  let parking: ThreadWait | null = null;
  let objectWait: ThreadWait | null = null;
  for (const l of th.locks) {
    if (l.lock === null) continue;
    switch (l.kind) {
      case 'waiting-to-lock':
      case 'waiting-to-relock':
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
  // Parked on a Condition is waiting for a signal (like Object.wait), not for a lock owner.
  if (parking && /ConditionObject$|ConditionNode$/.test(parking.lock.className)) return { kind: 'object-wait', lock: parking.lock };
  if (parking) return parking;
  if (objectWait) {
    // ThreadInfo-style dumps say `waiting on` for a park blocker too.
    const top = th.frames[0]?.qualified ?? '';
    if (PARK_FRAME.test(top) && !/ConditionObject$|ConditionNode$/.test(objectWait.lock.className)) return { kind: 'parking', lock: objectWait.lock };
    return objectWait;
  }
  return null;
}

/** Monitors and ownable synchronizers this thread holds. */
export function heldLocks(th: ThreadEntry): LockRef[] {
  const released = new Set<string>();
  for (const l of th.locks) if (l.kind === 'waiting-on' && l.lock && l.lock.id) released.add(l.lock.id);
  const held: LockRef[] = [];
  const seen = new Set<string>();
  for (const l of th.locks) {
    if (l.kind !== 'locked' || !l.lock || !l.lock.id) continue;
    if (released.has(l.lock.id) || seen.has(l.lock.id)) continue;
    seen.add(l.lock.id);
    held.push(l.lock);
  }
  for (const s of th.ownableSynchronizers) {
    if (!s.id || seen.has(s.id)) continue;
    seen.add(s.id);
    held.push(s);
  }
  return held;
}
