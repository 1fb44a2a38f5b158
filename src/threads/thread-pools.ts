/**
 * Thread pools: sets of threads that run one executor's worker loop. A thread is a pool worker
 * because its stack shows the loop (a ThreadPoolExecutor's runWorker, WebLogic's ExecuteThread,
 * WebSphere's ThreadPool$Worker, ...; see POOL_LOOPS), and its name says which pool of that kind
 * (`pool-3-thread-7` → `pool-3`, WebLogic's queue name). Threads that only share a name stem
 * (`Thread-0..N`, one thread per instance, a handler thread per browser tab) are not a pool, unless
 * their stacks agree: the same run method, with at least one of them taking work from a queue, and
 * those that take from one queue (an executor's workers share its queue). One thread is never a
 * pool: a lone `pool-7-thread-1` (a job engine's executor for one job) or boss thread has nobody to
 * share its work with, so "every worker busy" says nothing about capacity.
 */
import { isJdkClass } from '../knowledge/index.js';
import type { ThreadActivity } from '../model/activity.js';
import { compareText } from '../model/text-order.js';
import type { FrameLock, LockRef, StackFrame, ThreadDump, ThreadEntry } from '../model/thread-dump.js';
import { poolNameOf, workerName, workerNumberEnd, workerNumberStart } from './pool-naming.js';
import { activityFrameOfFrames, poolLoopOf } from './thread-activity.js';

export interface ThreadPoolObservation {
  /** Pool name as people say it (`DubboServerHandler-10.0.0.1:20880`, `weblogic.kernel.Default`). */
  readonly name: string;
  /** The kind of worker loop (`ThreadPoolExecutor`, `WebLogic work manager`, `run loop of X.run`). */
  readonly loop: string;
  readonly threads: number[];
  readonly busy: number[];
  readonly idle: number[];
  /**
   * An executor (a known worker loop, or look-alikes with a run loop seen taking work from one
   * queue), or false for look-alikes only: threads with one numbered name stem and one run method
   * and no sign of taking work from a shared queue (started one by one, or each with a queue of its
   * own). Rules judge those only when asked.
   */
  readonly real: boolean;
}

/** The bottom-most frame outside the JDK: the run method a group of look-alike threads shares. */
function runMethodOf(frames: ReadonlyArray<{ readonly className: string; readonly qualified: string }>): string | null {
  for (let i = frames.length - 1; i >= 0; i--) {
    const c = frames[i]!.className;
    if (!isJdkClass(c)) return frames[i]!.qualified;
  }
  return null;
}

/**
 * Threads by the pattern of their names, the worker number as `*` (`pool-3-thread-*`), keyed by the
 * text before the number and the text after it: a pattern string built per thread and hashed as a
 * key cost more than the rest of finding pools. A name with no number is a group of its own.
 */
class ByNamePattern {
  readonly #byPrefix = new Map<string, Map<string, number[]>>();

  /** Adds thread `i`; false (and nothing added) when the name has no number and `orAlone` is false. */
  add(fullName: string, i: number, orAlone: boolean): boolean {
    const name = workerName(fullName);
    const end = workerNumberEnd(name);
    const start = workerNumberStart(name, end);
    if (start < 0 && !orAlone) return false;
    // A suffix holds no digit, so NO_NUMBER never meets a real one.
    const prefix = start < 0 ? name : name.slice(0, start);
    const suffix = start < 0 ? NO_NUMBER : end === name.length ? '' : name.slice(end);
    let bySuffix = this.#byPrefix.get(prefix);
    if (bySuffix === undefined) this.#byPrefix.set(prefix, (bySuffix = new Map()));
    const members = bySuffix.get(suffix);
    if (members === undefined) bySuffix.set(suffix, [i]);
    else members.push(i);
    return true;
  }

  *groups(): Iterable<number[]> {
    for (const bySuffix of this.#byPrefix.values()) yield* bySuffix.values();
  }
}

const NO_NUMBER = '0';

/** The pool name of the JDK's default thread names (`Thread-0`, `Thread-1`, ...). */
const JDK_DEFAULT_STEM = 'Thread';

export function findThreadPools(dump: ThreadDump, activity: readonly ThreadActivity[]): ThreadPoolObservation[] {
  // Threads by worker loop and by name pattern. What a name says about its pool is read once per pattern.
  const byLoop = new Map<string, ByNamePattern>();
  const stems = new ByNamePattern();
  const threads = dump.threads;
  for (let i = 0; i < threads.length; i++) {
    const th = threads[i]!;
    // Housekeeping threads (a JDK process reaper's pool) are nobody's capacity.
    if (th.frames.length === 0 || th.virtual || activity[i]!.activity === 'housekeeping') continue;
    const loop = poolLoopOf(th);
    if (loop === undefined) {
      stems.add(th.name, i, false);
      continue;
    }
    let byPattern = byLoop.get(loop);
    if (byPattern === undefined) byLoop.set(loop, (byPattern = new ByNamePattern()));
    byPattern.add(th.name, i, true);
  }
  const groups: Array<{ name: string; loop: string; members: number[]; real: boolean }> = [];
  // Patterns that name one pool are merged (WebLogic's `[ACTIVE]` and `[STANDBY]` threads of one
  // queue; JEUS's `...-w09 [container1-223]`, whose pattern keeps the worker's own number).
  const mergedByName = (byPattern: ByNamePattern): Map<string, number[]> => {
    const byName = new Map<string, number[]>();
    // Members are in thread order within a pattern; only names that merged several need sorting.
    const mergedNames = new Set<string>();
    for (const members of byPattern.groups()) {
      const first = dump.threads[members[0]!]!.name;
      const name = poolNameOf(first) ?? first;
      const merged = byName.get(name);
      if (merged === undefined) byName.set(name, members);
      else {
        if (!mergedNames.has(name)) byName.set(name, [...merged, ...members]);
        else for (const m of members) merged.push(m);
        mergedNames.add(name);
      }
    }
    for (const name of mergedNames) byName.get(name)!.sort((a, b) => a - b);
    return byName;
  };
  for (const [loop, byPattern] of byLoop) {
    for (const [name, members] of mergedByName(byPattern)) {
      // The JDK's default names (Thread-0, Thread-1, ...) do not say which executor a worker is of:
      // several executors' workers are one only when those waiting for work wait on one queue.
      const real = name !== JDK_DEFAULT_STEM || takeFromOneQueue(dump, activity, members, runMethodOf(dump.threads[members[0]!]!.frames) ?? '');
      groups.push({ name, loop, members, real });
    }
  }
  // Look-alike threads with no known loop: a pool only when they share one run method and at least
  // one of them takes work from a queue they share, which a one-thread-per-instance design does not show.
  for (const [name, members] of mergedByName(stems)) {
    if (members.length < 2) continue;
    if (name === JDK_DEFAULT_STEM) continue; // the JDK's default names (Thread-0, Thread-1, ...) say nothing
    const run = runMethodOf(dump.threads[members[0]!]!.frames);
    if (run === null || !members.every((i) => runMethodOf(dump.threads[i]!.frames) === run)) continue;
    groups.push({ name, loop: `run loop of ${run}`, members, real: takeFromOneQueue(dump, activity, members, run) });
  }
  const pools: ThreadPoolObservation[] = [];
  for (const { name, loop, members, real } of groups) {
    // One thread is never a pool, whatever its name or loop: nothing shares its work.
    if (members.length < 2) continue;
    const busy: number[] = [];
    const idle: number[] = [];
    for (const i of members) {
      const a = activity[i]!.activity;
      (a === 'working' || a === 'blocked' ? busy : idle).push(i);
    }
    pools.push({ name, loop, threads: members, busy, idle, real });
  }
  return pools.sort((a, b) => b.threads.length - a.threads.length || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Look-alike threads are one executor when they take work from one queue: at least one of them
 * waits for work in a queue's take or poll (or in its own loop's wait-for-work method, or on an
 * object work is handed over on, as the classifier says), and those that wait in a queue whose
 * object the dump names all wait on the same one. A nap, a selector or a read is no queue; threads
 * each with a queue of their own (a handler thread per tab, a consumer per partition) wait on
 * different objects. A worker waiting on its own thread object is handed its work by the pool, so
 * its object names no queue.
 */
function takeFromOneQueue(dump: ThreadDump, activity: readonly ThreadActivity[], members: readonly number[], run: string): boolean {
  const runClass = run.slice(0, run.lastIndexOf('.'));
  let takers = 0;
  const queues = new Set<string>();
  for (const i of members) {
    const a = activity[i]!;
    if (a.activity !== 'idle') continue;
    const th = dump.threads[i]!;
    const take = queueTakeOf(th.frames);
    const on = waitObjectOf(th, Math.max(take, 0));
    const handedOver = on?.className === runClass;
    if (take < 0 && !handedOver && a.basis !== 'work-wait-method' && a.basis !== 'wait-object') continue;
    takers++;
    if (on !== undefined && !handedOver) queues.add(on.id);
  }
  return takers > 0 && queues.size <= 1;
}

/**
 * The object a waiting thread waits on, as the dump names it at or above frame `upTo`. Older JDKs
 * print only `- locked` for the monitor an `Object.wait` releases (no `- waiting on` line): then it
 * is the first monitor locked beneath the wait.
 */
function waitObjectOf(th: ThreadEntry, upTo: number): LockRef | undefined {
  const named = (l: FrameLock) => l.lock !== null && l.lock.id !== '';
  const waitedOn = th.locks.find((l) => l.frameIndex <= upTo && l.kind !== 'locked' && named(l));
  if (waitedOn !== undefined) return waitedOn.lock!;
  if (th.frames[0]?.qualified !== 'java.lang.Object.wait') return undefined;
  return th.locks.find((l) => l.kind === 'locked' && named(l))?.lock ?? undefined;
}

const TAKE_METHOD = /^(?:take|poll|takeFirst|takeLast|pollFirst|pollLast)$/;
/** A queue's class by its simple name (the JDK's blocking queues, and the queues of schedulers and brokers). */
function isQueueClass(className: string): boolean {
  const simple = className.slice(Math.max(className.lastIndexOf('.'), className.lastIndexOf('$')) + 1);
  return simple.includes('Queue') || simple.includes('Deque');
}

/** The index of the frame taking the next element from a queue, or -1. */
function queueTakeOf(frames: readonly StackFrame[]): number {
  for (let i = 0; i < frames.length; i++) {
    const f = frames[i]!;
    if (TAKE_METHOD.test(f.method) && isQueueClass(f.className)) return i;
  }
  return -1;
}

/** The busy threads' activities, most common first: `{frame, count}`. */
export function busyActivities(dump: ThreadDump, busy: number[]): Array<{ frame: string; count: number }> {
  // Counted by stack first: the busy workers of a big pool mostly share one frames array.
  const byStack = new Map<readonly StackFrame[], number>();
  for (const i of busy) {
    const frames = dump.threads[i]!.frames;
    byStack.set(frames, (byStack.get(frames) ?? 0) + 1);
  }
  const counts = new Map<string, number>();
  for (const [frames, n] of byStack) {
    const f = activityFrameOfFrames(frames);
    counts.set(f, (counts.get(f) ?? 0) + n);
  }
  return [...counts].map(([frame, count]) => ({ frame, count })).sort((a, b) => b.count - a.count || compareText(a.frame, b.frame));
}
