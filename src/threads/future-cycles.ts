/**
 * Deadlocks through a future: a thread holds a lock and waits for a task's result, while a pool's
 * thread runs a task of the kind it submitted and is blocked on that very lock. The lock graph has no
 * edge for "waits for a future" (the dump does not say which thread runs it), so the link is read from
 * the two stacks: the class that built the task (its first frame above the pool's FutureTask.run: the
 * Callable, or the host of the lambda handed to the pool) runs a real method beneath the waiter's wait,
 * where it was submitted. A likely cycle, not a proven one: the finding says "probably" and why.
 */
import { frameIndexOf, isJdkClass, lookupFrame, type RowOf } from '../knowledge/index.js';
import type { LockRef, StackFrame, ThreadDump } from '../model/thread-dump.js';
import type { LockGraph } from './lock-graph.js';

export interface FutureCycle {
  /** [the waiter holding the lock, the task's thread blocked on it]. */
  readonly threads: [number, number];
  /** The lock each waits for, in cycle order: none for the waiter (it waits for a future), the lock for the task's thread. */
  readonly lock: LockRef;
  /** The class that links the task to the waiter (submitted beneath the wait, running at the task's start). */
  readonly linkClass: string;
  /** The waiter's wait for the result (`java.util.concurrent.FutureTask.get`). */
  readonly waitFrame: string;
}

const WAITS = frameIndexOf('pressure');
const BOUNDARIES = frameIndexOf('boundary');

/** Where a thread waits for a task's result: the frame index of the first such wait from the top. */
function futureWaitAt(frames: readonly StackFrame[]): number {
  for (let i = 0; i < frames.length; i++) {
    const row = lookupFrame(WAITS, frames[i]!) as RowOf<'pressure'> | undefined;
    if (row?.detail?.taskResult === true) return i;
  }
  return -1;
}

/** A lambda's class is its host's (`Handler$$Lambda$9/0x0...` → `Handler`); inner classes stay themselves. */
function lambdaHost(className: string): string {
  const at = className.indexOf('$$Lambda');
  return at < 0 ? className : className.slice(0, at);
}

/** The class whose code built a task: its first frame above its start (FutureTask.run) outside the JDK, a lambda read as its host. */
function taskEntryClass(frames: readonly StackFrame[]): string | undefined {
  let start = -1;
  for (let i = 0; i < frames.length; i++) {
    const b = lookupFrame(BOUNDARIES, frames[i]!);
    if (b !== undefined && b.detail?.threadStart !== true) {
      start = i;
      break;
    }
  }
  for (let i = start - 1; i >= 0; i--) if (!isJdkClass(frames[i]!.className)) return lambdaHost(frames[i]!.className);
  return undefined;
}

/**
 * The classes running real methods beneath a wait: where a task was submitted from. A lambda's body
 * (`lambda$main$2`) and its proxy run in another context (a thread started from `main` is not `main`).
 */
function callersBeneath(frames: readonly StackFrame[], from: number): Set<string> {
  const out = new Set<string>();
  for (let i = from + 1; i < frames.length; i++) {
    const f = frames[i]!;
    if (isJdkClass(f.className) || f.className.includes('$$Lambda') || f.method.startsWith('lambda$')) continue;
    out.add(f.className);
  }
  return out;
}

export function futureCycles(dump: ThreadDump, graph: LockGraph): FutureCycle[] {
  const out: FutureCycle[] = [];
  for (const node of graph.locks) {
    const a = node.owner;
    if (a === null) continue;
    const waiter = dump.threads[a]!;
    if (waiter.state !== 'WAITING' && waiter.state !== 'TIMED_WAITING') continue;
    const at = futureWaitAt(waiter.frames);
    if (at < 0) continue;
    const beneath = callersBeneath(waiter.frames, at);
    for (const w of node.waiters) {
      if (w.kind === 'object-wait' || w.thread === a) continue;
      const entry = taskEntryClass(dump.threads[w.thread]!.frames);
      if (entry === undefined || !beneath.has(entry)) continue;
      out.push({ threads: [a, w.thread], lock: node.lock, linkClass: entry, waitFrame: waiter.frames[at]!.qualified });
      break;
    }
  }
  return out;
}
