/**
 * A thread dump rebuilt from a heap dump: for when the heap dump is all there is (an
 * -XX:+HeapDumpOnOutOfMemoryError file). Each thread root's java.lang.Thread object gives the name,
 * id, daemon flag, priority and state (`threadStatus`, JVMTI bits; on JDK 19+ in `holder`); its HPROF
 * stack trace gives the frames; `parkBlocker` gives what a parked thread waits for, and a blocker that
 * is an AbstractOwnableSynchronizer names its owner, so j.u.c. lock cycles can be found. Monitors
 * (synchronized) are not recorded in HPROF: BLOCKED threads have no lock, and nobody is known to hold one.
 */
import type { JavaThreadState, LockRef, ThreadDump, ThreadDumpFile, ThreadEntry } from '../model/thread-dump.js';
import { FrameInterner, newThreadDump, newThreadEntry } from '../threads/dump-builder.js';
import type { HeapObject, HeapStore } from './heap-model.js';
import { hexId, numberOf, threadNameOf } from './heap-values.js';
import { type HeapView, isRef } from './heap-view.js';

/** JVMTI thread-state bits, as `java.lang.Thread.threadStatus` holds them. */
const JVMTI = {
  ALIVE: 0x1,
  TERMINATED: 0x2,
  RUNNABLE: 0x4,
  WAITING_INDEFINITELY: 0x10,
  WAITING_WITH_TIMEOUT: 0x20,
  SLEEPING: 0x40,
  IN_OBJECT_WAIT: 0x100,
  PARKED: 0x200,
  BLOCKED_ON_MONITOR_ENTER: 0x400,
} as const;

export interface ThreadStatus {
  readonly state: JavaThreadState;
  readonly detail?: string;
}

/** `threadStatus` to the state and qualifier jstack prints (`TIMED_WAITING (sleeping)`). */
export function threadStatusToState(status: number): ThreadStatus {
  if (status === 0) return { state: 'NEW' };
  if ((status & JVMTI.TERMINATED) !== 0) return { state: 'TERMINATED' };
  if ((status & JVMTI.ALIVE) === 0) return { state: 'UNKNOWN' };
  if ((status & JVMTI.BLOCKED_ON_MONITOR_ENTER) !== 0) return { state: 'BLOCKED', detail: 'on object monitor' };
  if ((status & JVMTI.RUNNABLE) !== 0) return { state: 'RUNNABLE' };
  const detail =
    (status & JVMTI.SLEEPING) !== 0
      ? 'sleeping'
      : (status & JVMTI.IN_OBJECT_WAIT) !== 0
        ? 'on object monitor'
        : (status & JVMTI.PARKED) !== 0
          ? 'parking'
          : undefined;
  const state: JavaThreadState =
    (status & JVMTI.WAITING_WITH_TIMEOUT) !== 0 ? 'TIMED_WAITING' : (status & JVMTI.WAITING_INDEFINITELY) !== 0 ? 'WAITING' : 'UNKNOWN';
  return detail === undefined ? { state } : { state, detail };
}

/**
 * `java.lang.VirtualThread.state` to the state `Thread.getState()` gives (VirtualThread.threadState()):
 * JDK 21's values, plus the BLOCKING..TIMED_WAIT values JDK 24 added for monitors. States in
 * transition (parking, yielding, unparked) are RUNNABLE, as the JDK reports them.
 */
export function virtualThreadStateToState(raw: number): ThreadStatus {
  const state = raw & ~VIRTUAL_SUSPENDED;
  switch (state) {
    case 0:
      return { state: 'NEW' };
    case 4: // PARKED
    case 5: // PINNED
      return { state: 'WAITING', detail: 'parking' };
    case 7: // TIMED_PARKED
    case 8: // TIMED_PINNED
      return { state: 'TIMED_WAITING', detail: 'parking' };
    case 13: // BLOCKED (JDK 24+: unmounted while waiting for a monitor)
      return { state: 'BLOCKED', detail: 'on object monitor' };
    case 16: // WAIT
      return { state: 'WAITING', detail: 'on object monitor' };
    case 18: // TIMED_WAIT
      return { state: 'TIMED_WAITING', detail: 'on object monitor' };
    case 99:
      return { state: 'TERMINATED' };
    default:
      return state >= 1 && state <= 18 ? { state: 'RUNNABLE' } : { state: 'UNKNOWN' };
  }
}

/** VirtualThread's flag for "suspended from scheduling while unmounted", or-ed into its state. */
const VIRTUAL_SUSPENDED = 1 << 8;

/** The heap's threads as one thread dump, or undefined when the dump recorded no stacks at all. */
export function threadDumpFromHeap(view: HeapView, store: HeapStore, path: string): ThreadDumpFile | undefined {
  const roots = store.threads;
  if (!roots.some((r) => r.frames !== undefined && r.frames.length > 0)) return undefined;
  const dump: ThreadDump = newThreadDump(path, 0, 'hprof', 0);
  const when = new Date(store.source.timestampMs);
  if (store.source.timestampMs > 0 && !Number.isNaN(when.getTime())) {
    const iso = when.toISOString().slice(0, 19);
    dump.timestamp = `${iso.replace('T', ' ')} UTC (HPROF header)`;
    dump.timestampIso = iso;
  }
  const frames = new FrameInterner();
  const byObject = new Map<number, ThreadEntry>();
  const blockers: Array<{ thread: ThreadEntry; blocker: HeapObject }> = [];
  let missing = 0;
  for (const root of roots) {
    const thread = view.object(root.objectId);
    if (thread === undefined) {
      missing++;
      continue;
    }
    const holder = view.follow(thread, 'holder'); // JDK 19+: daemon, priority and status live here
    const fieldOf = (name: string) => numberOf(view, view.field(thread, name) ?? view.field(holder, name) ?? undefined);
    const entry = newThreadEntry(threadNameOf(view, thread) ?? `(thread 0x${root.objectId.toString(16)})`, 0);
    const tid = fieldOf('tid');
    if (tid !== undefined) entry.javaId = String(tid);
    entry.daemon = fieldOf('daemon') === 1;
    const priority = fieldOf('priority');
    if (priority !== undefined) entry.priority = priority;
    // A virtual thread keeps its own state; its threadStatus (in holder) is not maintained.
    entry.virtual = view.classNameOf(thread) === 'java.lang.VirtualThread';
    const virtualState = entry.virtual ? numberOf(view, view.field(thread, 'state') ?? undefined) : undefined;
    const status = entry.virtual ? undefined : fieldOf('threadStatus');
    if (virtualState !== undefined || status !== undefined) {
      const s = virtualState !== undefined ? virtualThreadStateToState(virtualState) : threadStatusToState(status!);
      entry.state = s.state;
      if (s.detail !== undefined) entry.stateDetail = s.detail;
    }
    for (const text of root.frames ?? []) entry.frames.push(frames.intern(text));
    const blocker = view.follow(thread, 'parkBlocker');
    if (blocker !== undefined && entry.stateDetail === 'parking') blockers.push({ thread: entry, blocker });
    byObject.set(root.objectId, entry);
    dump.threads.push(entry);
  }
  for (const { thread, blocker } of blockers) {
    const lock = lockRef(view, blocker);
    thread.locks.push({ frameIndex: 0, kind: 'parking', lock });
    // A j.u.c. lock's owner, as jstack -l lists it under "Locked ownable synchronizers".
    const owner = view.field(blocker, 'exclusiveOwnerThread');
    const ownerEntry = isRef(owner) ? byObject.get(owner.ref) : undefined;
    if (ownerEntry !== undefined && !ownerEntry.ownableSynchronizers.some((l) => l.id === lock.id)) ownerEntry.ownableSynchronizers.push(lock);
  }
  const warnings = missing > 0 ? [`${missing} thread roots of the heap dump have no Thread object in it; they are left out`] : [];
  return { source: path, dumps: [dump], outsideLines: 0, totalLines: 0, warnings };
}

function lockRef(view: HeapView, o: HeapObject): LockRef {
  return { id: hexId(o.id), className: view.classNameOf(o) };
}
