/**
 * The thread-activity classifier: idle, working, blocked or housekeeping, with the reason.
 *
 * The idea: a wait means "waiting for work" when it sits in the thread's own loop, outside any task
 * or request, and means work when a task or request lies beneath it. The stack says which: the
 * frames between the wait and the nearest boundary beneath it (a thread's run method, a pool's run
 * loop, a task's start) are the loop's own code when there are few of them and none handles a
 * request. Knowledge kept as data (the registry of src/knowledge/) names the waits of known frameworks and
 * the frames of requests, pools and housekeeping; the wait object adds what one stack cannot (many
 * threads parked on one condition nobody holds are a work queue's consumers).
 */
import { frameIndexOf, isJdkClass, lookupFrame, methodNameTest, nameMatcher, type RowOf } from '../knowledge/index.js';
import type { ThreadActivity } from '../model/activity.js';
import type { StackFrame, ThreadDump, ThreadEntry } from '../model/thread-dump.js';
import type { LockGraph } from './lock-graph.js';
import { isSharedStack, perStack } from './per-stack.js';

/** Application frames a thread's own loop may have between its run method and its wait. */
const OWN_LOOP_MAX_FRAMES = 5;
/** Threads waiting on one condition or monitor that make it a work queue. */
const SHARED_WAIT_MIN_THREADS = 3;

// ---------------------------------------------------------------- frame knowledge lookup

type WaitRow = RowOf<'idle' | 'idle-outside-task' | 'ambiguous' | 'pressure' | 'next-message'>;
type BoundaryRow = RowOf<'pool-loop' | 'boundary'>;

interface FrameKnowledge {
  readonly wait?: WaitRow;
  readonly housekeeping?: RowOf<'housekeeping'>;
  readonly request?: RowOf<'request'>;
  /** A pool loop or a task/thread boundary. */
  readonly boundary?: BoundaryRow;
  /** A public API of the JDK that reads input. */
  readonly inputApi?: RowOf<'input-api'>;
}

const WAITS = frameIndexOf('idle', 'idle-outside-task', 'ambiguous', 'pressure', 'next-message');
const HOUSEKEEPING = frameIndexOf('housekeeping');
const REQUESTS = frameIndexOf('request');
const BOUNDARIES = frameIndexOf('pool-loop', 'boundary');
const INPUT_APIS = frameIndexOf('input-api');

// Frames are interned per parse: the answer per frame object is computed once.
const knowledgeCache = new WeakMap<StackFrame, FrameKnowledge>();

function knowledgeOf(f: StackFrame): FrameKnowledge {
  let k = knowledgeCache.get(f);
  if (k === undefined) {
    const wait = lookupFrame(WAITS, f);
    const housekeeping = lookupFrame(HOUSEKEEPING, f);
    const request = lookupFrame(REQUESTS, f);
    const boundary = lookupFrame(BOUNDARIES, f);
    const inputApi = lookupFrame(INPUT_APIS, f);
    k = {
      ...(wait !== undefined ? { wait } : {}),
      ...(housekeeping !== undefined ? { housekeeping } : {}),
      ...(request !== undefined ? { request } : {}),
      ...(boundary !== undefined ? { boundary } : {}),
      ...(inputApi !== undefined ? { inputApi } : {}),
    };
    knowledgeCache.set(f, k);
  }
  return k;
}

/** The JDK's own classes: never the application's loop or task. */
export function isJdkFrame(f: StackFrame): boolean {
  return isJdkClass(f.className);
}

/** Compiler-made frames (accessors, lambdas, reflection): not code anyone wrote as a loop level. */
function isSynthetic(f: StackFrame): boolean {
  return (
    f.method.startsWith('access$') ||
    f.method.startsWith('lambda$') ||
    f.className.includes('$$Lambda') ||
    f.className.includes('$Lambda$') ||
    f.className.includes('GeneratedMethodAccessor') ||
    f.className.startsWith('$Proxy')
  );
}

// ---------------------------------------------------------------- the shape of one stack

/** What a stack says, independent of the thread's state and locks (so it is computed once per shared stack). */
interface StackShape {
  readonly housekeeping?: RowOf<'housekeeping'>;
  /**
   * The wait the thread's code called, above the first boundary: the topmost wait of the JDK or a
   * framework, or the JDK's input API beneath it (`api`), which says what the wait is whatever lies between.
   */
  readonly wait?: { readonly row: RowOf<'idle-outside-task' | 'ambiguous'>; readonly at: number; readonly api?: boolean };
  /** The first framework row that decides by itself: idle or pressure. */
  readonly decisive?: { readonly row: RowOf<'idle' | 'pressure'>; readonly at: number };
  /** Server code reading the next request or message, beneath the wait. */
  readonly nextMessage?: { readonly row: RowOf<'next-message'>; readonly at: number };
  readonly request?: { readonly row: RowOf<'request'>; readonly at: number };
  /** The first boundary beneath the top: a pool loop, a task start or a thread's run method. */
  readonly boundary?: { readonly row: BoundaryRow; readonly at: number };
  /** Application frames between the wait (or the top) and the first boundary. */
  readonly appFramesBeneathWait: number;
  /** The first frame outside the JDK: what the thread is doing, as people read it. */
  readonly activityFrame: string;
  /** The first application frame beneath the wait: the code that called it. */
  readonly caller?: StackFrame;
  /** The class of the bottom-most application frame: the thread's own run method. */
  readonly rootClass?: string;
  /** Verdicts of threads with this (shared) stack, by state, when their locks and names add nothing. */
  verdicts?: Map<string, ThreadActivity>;
}

function shapeOf(frames: readonly StackFrame[]): StackShape {
  let housekeeping: RowOf<'housekeeping'> | undefined;
  let wait: StackShape['wait'];
  let decisive: StackShape['decisive'];
  let nextMessage: StackShape['nextMessage'];
  let request: StackShape['request'];
  let boundary: StackShape['boundary'];
  let appAbove = 0; // application frames (with no row of their own) above the current one
  let appBeneathWait = 0;
  let rootClass: string | undefined;
  let caller: StackFrame | undefined;
  // A native method of a library no row knows, on top: it may wait for input under a name no test reads.
  const top = frames[0];
  const unknownNativeTop = top !== undefined && top.location === 'Native Method' && !isJdkFrame(top);
  for (let i = 0; i < frames.length; i++) {
    const f = frames[i]!;
    const k = knowledgeOf(f);
    housekeeping ??= k.housekeeping;
    const app = !isJdkFrame(f) && !isSynthetic(f);
    if (app) rootClass = f.className;
    if (boundary !== undefined) continue;
    if (k.request !== undefined) request ??= { row: k.request, at: i };
    // The public API the thread called to read, beneath a wait: what the thread does, whatever code
    // lies between (a vendor's buffer waiting on a monitor, a subclass of a stream, a native read).
    const api = k.inputApi;
    if (
      api !== undefined &&
      request === undefined &&
      decisive === undefined &&
      // Beneath a wait that is not a read already, or beneath a read with other code between; or beneath
      // an unknown native method (the API it serves says what it does). The JDK's own native file read on
      // top is a file read, work, unless a series shows it used no CPU (cpu-evidence.ts).
      (wait === undefined ? unknownNativeTop : (wait.row.role !== 'ambiguous' || appBeneathWait > 0) && (wait.api !== true || appBeneathWait === 0))
    ) {
      wait = { row: inputApiWait(api, i === 0 ? undefined : top!), at: i, api: true };
      appBeneathWait = 0;
      caller = undefined;
      continue;
    }
    const row = k.wait ?? (i === 0 ? nativeInputWait(f) : undefined);
    if (row !== undefined && request === undefined && decisive === undefined) {
      if (row.role === 'next-message') nextMessage ??= { row, at: i };
      // The wait the application called: the last of the run of waits on top (a queue's poll, not the park inside it).
      else if (row.role === 'idle-outside-task' || row.role === 'ambiguous') {
        if (wait === undefined || appBeneathWait === 0) wait = { row, at: i };
      } else if (row.role === 'pressure') decisive = { row, at: i };
      else if (row.detail?.outsideTaskOnly !== true || (appAbove === 0 && directlyInLoop(frames, i))) decisive = { row, at: i };
      else {
        // The loop's own frame with a task above it: the loop is the boundary; the task is the work.
        boundary = { row: { match: row.match, role: 'pool-loop', means: `its loop (${row.match})`, source: row.source, detail: { pool: row.means } }, at: i };
        continue;
      }
    }
    if (k.boundary !== undefined) {
      boundary = { row: k.boundary, at: i };
      continue;
    }
    if (app && row === undefined) {
      appAbove++;
      if (wait !== undefined) {
        if (appBeneathWait === 0) caller = f;
        appBeneathWait++;
      }
    }
  }
  return {
    ...(housekeeping !== undefined ? { housekeeping } : {}),
    ...(wait !== undefined ? { wait } : {}),
    ...(decisive !== undefined ? { decisive } : {}),
    ...(nextMessage !== undefined ? { nextMessage } : {}),
    ...(request !== undefined ? { request } : {}),
    ...(boundary !== undefined ? { boundary } : {}),
    ...(rootClass !== undefined ? { rootClass } : {}),
    ...(caller !== undefined ? { caller } : {}),
    appFramesBeneathWait: appBeneathWait,
    activityFrame: activityFrameOf(frames),
  };
}

const stackShape = perStack(shapeOf);

function activityFrameOf(frames: readonly StackFrame[]): string {
  for (const f of frames) if (!isJdkFrame(f)) return f.qualified;
  return frames[0]?.qualified ?? '(no stack)';
}

/**
 * Top frames outside the JDK's own waiting machinery: what a busy thread is really doing. A walk
 * from the top, not the whole shape: a thread whose stack is its own pays a few frames.
 */
export function activityFrame(th: ThreadEntry): string {
  return activityFrameOfFrames(th.frames);
}

/** activityFrame of a stack, for callers that hold the frames array rather than the thread. */
export const activityFrameOfFrames = perStack(activityFrameOf);

/**
 * The kind of pool whose worker loop this thread runs (`ThreadPoolExecutor`, `WebLogic work
 * manager`, ...), if any: the bottom-most pool loop, found walking up from the thread's root.
 */
export function poolLoopOf(th: ThreadEntry): string | undefined {
  return poolLoopOfStack(th.frames);
}

const poolLoopOfStack = perStack((frames): string | undefined => {
  for (let i = frames.length - 1; i >= 0; i--) {
    const b = knowledgeOf(frames[i]!).boundary;
    if (b?.role === 'pool-loop') return b.detail.pool;
  }
  return undefined;
});

/**
 * For an idle row that holds only outside a task (getTask, awaitWork): beneath it, past the pool's
 * own and the JDK's frames, must come the pool's loop or the thread's root, not a task.
 */
function directlyInLoop(frames: readonly StackFrame[], at: number): boolean {
  const own = frames[at]!.className;
  for (let i = at + 1; i < frames.length; i++) {
    const f = frames[i]!;
    const b = knowledgeOf(f).boundary;
    if (b !== undefined) return b.role === 'pool-loop' || isThreadStart(b);
    if (f.className === own || isJdkFrame(f) || isSynthetic(f)) continue;
    return false;
  }
  return true;
}

/** The thread's own start (Thread.run): above it runs the thread's own code, not a pool's task. */
function isThreadStart(b: BoundaryRow): boolean {
  return b.role === 'boundary' && b.detail?.threadStart === true;
}

// ---------------------------------------------------------------- verdicts

const idle = (basis: ThreadActivity['basis'], reason: string, frame?: string): ThreadActivity => ({
  activity: 'idle',
  basis,
  reason,
  ...(frame !== undefined ? { frame } : {}),
});
const working = (basis: ThreadActivity['basis'], reason: string, frame?: string): ThreadActivity => ({
  activity: 'working',
  basis,
  reason,
  ...(frame !== undefined ? { frame } : {}),
});

/**
 * What one dump's lock graph tells the classifier about a thread: the lock it waits to acquire, and,
 * asked only when a verdict needs it (a wait deep in a stack), the object it waits on for a signal.
 */
export interface LockContext {
  /** The lock the thread waits to acquire and its owner's name, when it waits for a lock. */
  readonly acquiring?: { readonly lock: string; readonly owner: string | null };
  /** The object the thread waits on for a signal, if any (looked up when called). */
  readonly waitObject?: () => WaitObject | undefined;
}

interface WaitObject {
  /** Its class. */
  readonly className: string;
  /** Threads waiting (Object.wait or parked on a signal) on it, this one included. */
  readonly sharedWaiters: number;
  /** Whether some thread holds its monitor while not waiting on it. */
  readonly owned: boolean;
}

const NO_LOCKS: LockContext = {};

/** The context of the waiters of one lock in one dump, which remembers the verdict it last gave (see classifyThread). */
class AcquiringContext implements LockContext {
  lastShape: StackShape | undefined;
  lastVerdict: ThreadActivity | undefined;
  constructor(readonly acquiring: { readonly lock: string; readonly owner: string | null }) {}
}

/** Objects many threads wait on without it being a work queue: they all wait for one result. */
const LATCH_LIKE = /CountDownLatch|Future|Phaser|CyclicBarrier|Semaphore/;

/** Classifies one thread. `locks` comes from the dump's lock graph (see classifyDump). */
export function classifyThread(th: ThreadEntry, locks: LockContext = NO_LOCKS): ThreadActivity {
  const frames = th.frames;
  // Waiting for the class another thread initialises: blocked on that thread, whatever its state says
  // (RUNNABLE), and with or without frames (a lock line may come before any).
  const classInit = th.locks.length === 0 ? undefined : th.locks.find((l) => l.kind === 'waiting-class-init');
  if (classInit !== undefined) {
    const reason = `waits for ${classInit.lock?.className ?? 'a class'} to be initialised by another thread`;
    return frames.length === 0
      ? { activity: 'blocked', basis: 'class-init', reason }
      : { activity: 'blocked', basis: 'class-init', reason, frame: stackShape(frames).activityFrame };
  }
  if (frames.length === 0) {
    const named = housekeepingByName(th.name);
    if (named !== undefined) return { activity: 'housekeeping', basis: 'thread-name', reason: `${named.means} (by its name)` };
    if (th.virtual) return idle('no-stack', 'a virtual thread that is not mounted (no frames): waiting to be scheduled');
    return { activity: 'housekeeping', basis: 'no-stack', reason: 'no Java frames: a JVM-internal thread (GC, JIT compiler, VM thread)' };
  }
  const s = stackShape(frames);
  // Threads that share a stack and a state get one verdict object when neither their locks nor their
  // names say more (most of a big pool): no allocation, no walk per thread.
  // A name says "the JVM's own thread" only over a stack of JVM code: an application may name its threads anything.
  const byName = s.rootClass === undefined ? housekeepingByName(th.name) : undefined;
  // A thread blocked on a lock is judged by its stack and the lock and owner alone (the threads of
  // a contention share all three); the main thread's name matters only when it waits for nothing.
  const plain = byName === undefined && (locks.acquiring !== undefined || !isMainThreadName(th.name));
  // The shape of a shared stack is itself kept per stack, so it carries the stack's verdicts.
  const memo = plain && isSharedStack(frames) ? (s.verdicts ??= new Map()) : undefined;
  if (locks instanceof AcquiringContext && memo !== undefined) {
    // Blocked: the verdict depends on the stack and the lock context alone; the waiters of one
    // lock share the context and mostly one stack, so the context keeps the last verdict it gave.
    if (locks.lastShape === s) return locks.lastVerdict!;
    const verdict = classifyShape(th, s, locks, byName);
    locks.lastShape = s;
    locks.lastVerdict = verdict;
    return verdict;
  }
  // Whether the thread waits on an object is part of the key: a verdict given to a thread with no
  // wait object (it never read one) must not reach threads whose wait object would decide theirs.
  const key =
    th.stackTruncated || locks.waitObject !== undefined ? `${th.state}${th.stackTruncated ? '!' : ''}${locks.waitObject !== undefined ? '@' : ''}` : th.state;
  const known = memo?.get(key);
  if (known !== undefined) return known;
  const verdict = classifyShape(th, s, locks, byName);
  // A verdict that read the wait object belongs to this thread alone.
  if (!readWaitObject.has(verdict)) memo?.set(key, verdict);
  return verdict;
}

/** Verdicts decided by what the wait object says (other waiters, its class): never shared by stack. */
const readWaitObject = new WeakSet<ThreadActivity>();

function fromWaitObject(v: ThreadActivity): ThreadActivity {
  readWaitObject.add(v);
  return v;
}

/**
 * The housekeeping names as one test: most threads' names match none, and are then read once, not
 * once per row. Anchored once, outside the alternation: with each row's own `^` inside it, the regex
 * engine tried the alternatives at every position of the name.
 */
const housekeepingByName = nameMatcher('jvm-thread-name', 'gc-thread-name');

const isMainThreadName = nameMatcher('main-thread-name');

/** Method names that say "read the next request or message", as one test. */
const NEXT_MESSAGE_METHOD = methodNameTest('next-message-method');

const NATIVE_INPUT_METHOD = methodNameTest('native-input-method');

const nativeInputRows = new Map<string, RowOf<'ambiguous'>>();

/**
 * A native method of a library no row knows, on top of the stack, named like a wait for input (a
 * read, a receive, an accept): a wait on a peer, judged like a socket read by where it sits.
 */
function nativeInputWait(f: StackFrame): RowOf<'ambiguous'> | undefined {
  // The JDK's own native waits are rows; an unknown one of the JDK (a file read) is not a wait for a peer.
  if (f.location !== 'Native Method' || isJdkFrame(f) || !NATIVE_INPUT_METHOD.test(f.method)) return undefined;
  let r = nativeInputRows.get(f.qualified);
  if (r === undefined) {
    r = { match: f.qualified, role: 'ambiguous', means: `a native ${f.method} (a wait for input)`, source: 'jdk' };
    nativeInputRows.set(f.qualified, r);
  }
  return r;
}

/** The read an input API frame stands for, naming the frame that waits above it. */
function inputApiWait(api: RowOf<'input-api'>, waitsIn: StackFrame | undefined): RowOf<'ambiguous'> {
  const means = waitsIn === undefined ? api.means : `${api.means} (waiting in ${waitsIn.qualified} above it)`;
  return { match: api.match, role: 'ambiguous', means, source: api.source };
}

/** The first two segments of a package: code of one vendor or project (`org.apache`, `com.acme`). */
function family(className: string): string {
  const first = className.indexOf('.');
  const second = first < 0 ? -1 : className.indexOf('.', first + 1);
  return second < 0 ? className : className.slice(0, second);
}

/**
 * Beneath a read, before any boundary: a method of the thread's own code (its root's vendor) named
 * like reading the next request or message. A server no row knows reads its next request so; a JDBC
 * driver's or an HTTP client's read belongs to another vendor than the loop that called it.
 */
function messageReaderBeneath(frames: readonly StackFrame[], s: StackShape, from: number): StackFrame | undefined {
  if (s.rootClass === undefined) return undefined;
  const own = family(s.rootClass);
  const end = s.boundary?.at ?? frames.length;
  for (let i = from + 1; i < end; i++) {
    const f = frames[i]!;
    if (NEXT_MESSAGE_METHOD.test(f.method) && !isJdkFrame(f) && family(f.className) === own) return f;
  }
  return undefined;
}

const CLIENT_CALLS = frameIndexOf('client-call');

/** A client library's frame beneath a read: the read is a call to a remote service. */
function clientCallBeneath(frames: readonly StackFrame[], from: number): RowOf<'client-call'> | undefined {
  for (let i = from + 1; i < frames.length; i++) {
    const row = lookupFrame(CLIENT_CALLS, frames[i]!);
    if (row !== undefined) return row;
  }
  return undefined;
}

/** The methods whose names say "wait for the next piece of work", as one test. */
const WORK_WAIT_METHOD = methodNameTest('work-wait-method');

function classifyShape(th: ThreadEntry, s: StackShape, locks: LockContext, named: RowOf<'jvm-thread-name' | 'gc-thread-name'> | undefined): ThreadActivity {
  const frames = th.frames;
  if (s.housekeeping !== undefined) return { activity: 'housekeeping', basis: 'known-frame', reason: s.housekeeping.means, frame: s.housekeeping.match };
  if (named !== undefined && s.request === undefined) return { activity: 'housekeeping', basis: 'thread-name', reason: `${named.means} (by its name)` };

  const d = s.decisive;
  if (locks.acquiring !== undefined) {
    // A loop whose threads take turns on one lock (WebLogic's muxers) is idle while it waits its turn.
    if (d !== undefined && d.row.role === 'idle')
      return idle('known-frame', `${d.row.means}; waits its turn for the loop's lock ${locks.acquiring.lock}`, d.row.match);
    // Threads queued to accept on one server socket take turns (leader/follower): the lock guards the
    // input, and whoever holds it waits for the next connection. Waiting for input is waiting for work.
    const w = s.wait;
    if (w?.row.role === 'idle-outside-task' && w.row.detail?.input === true && s.request === undefined && s.appFramesBeneathWait <= OWN_LOOP_MAX_FRAMES)
      return idle(
        'known-frame',
        `waits its turn for ${w.row.means}: ${locks.acquiring.lock} guards the server socket, and its holder takes the next one`,
        w.row.match,
      );
    const owner = locks.acquiring.owner !== null ? ` held by "${locks.acquiring.owner}"` : ' (no owner named in the dump)';
    return { activity: 'blocked', basis: 'lock', reason: `waits to acquire ${locks.acquiring.lock}${owner}`, frame: s.activityFrame };
  }
  const waiting = th.state === 'WAITING' || th.state === 'TIMED_WAITING';
  if (isMainThreadName(th.name) && waiting && s.request === undefined && appFrames(frames) <= 3) {
    return idle('shutdown-wait', `the program's main thread waiting for the life of the JVM (${s.activityFrame})`, s.activityFrame);
  }
  if (d !== undefined) {
    if (d.row.role === 'pressure') return working('pressure', `${d.row.means} inside its work (${s.activityFrame})`, d.row.match);
    return idle('known-frame', d.row.means, d.row.match);
  }
  const nm = s.nextMessage;
  if (nm !== undefined && s.wait !== undefined && s.wait.row.role === 'ambiguous' && s.wait.at < nm.at) {
    return idle('listener', `${nm.row.means}: ${s.wait.row.means} with no request in progress`, nm.row.match);
  }
  if (s.request !== undefined) {
    const what = s.wait !== undefined ? `${s.wait.row.means} inside ${s.request.row.means}` : `handling ${s.request.row.means}`;
    return working('in-request', `${what} (${s.activityFrame})`, s.request.row.match);
  }
  const w = s.wait;
  if (w !== undefined) {
    const root = s.boundary?.row;
    const dedicated = root === undefined || isThreadStart(root);
    const shallow = s.appFramesBeneathWait <= OWN_LOOP_MAX_FRAMES && !(th.stackTruncated && s.boundary === undefined && s.appFramesBeneathWait > 2);
    const caller = s.activityFrame;
    const inside = root === undefined ? 'its work' : root.role === 'pool-loop' ? `a task of ${root.means}` : root.means;
    const workWait = s.caller !== undefined ? WORK_WAIT_METHOD.test(s.caller.method) : false;
    if (workWait) {
      return idle('work-wait-method', `${w.row.means} in ${s.caller!.qualified}, a method that waits for the next piece of work`, w.row.match);
    }
    if (w.row.role === 'idle-outside-task' && w.row.detail?.nap === true && !dedicated) {
      // A virtual thread unmounts while it sleeps or parks: its carrier is free, only the task waits.
      const holds = th.virtual ? 'the virtual thread waits, unmounted: its carrier is free meanwhile' : 'the task holds its worker while it waits';
      return working('nap', `${w.row.means} inside ${inside} (${caller}): ${holds}`, w.row.match);
    }
    if (w.row.role === 'ambiguous') {
      // A client library beneath the read makes it a call to a remote service: work, wherever it sits.
      const client = clientCallBeneath(th.frames, w.at);
      if (client !== undefined) return working('in-task', `${w.row.means} inside ${client.means} (${caller}): a call to a remote service`, w.row.match);
      if (dedicated && shallow)
        return idle(
          'listener',
          `${w.row.means} in its own loop (${caller}), outside any task or request: a listener waiting for its peer's next message`,
          w.row.match,
        );
      const reader = messageReaderBeneath(th.frames, s, w.at);
      if (reader !== undefined)
        return idle(
          'listener',
          `${w.row.means} in ${reader.qualified}, its own code reading the next request or message, with no request in progress: waiting for its peer`,
          w.row.match,
        );
      // A thread of its own (no pool, no task, no request) that reads, however deep its loop: waiting
      // for input (a command line, a peer, a pipe).
      if (dedicated)
        return idle('listener', `${w.row.means} in its own thread (${caller}), with no task, request or client call beneath: waiting for input`, w.row.match);
      return working('in-task', `${w.row.means} inside ${inside} (${caller}): a call to a remote peer or a file`, w.row.match);
    }
    if (shallow) {
      // A loop of the JDK's own (no application frame at all) needs no "where".
      const where = s.rootClass === undefined ? '' : ` (${caller})`;
      if (w.row.role === 'idle-outside-task' && w.row.detail?.nap === true)
        return idle('own-loop-nap', `naps in its own loop${where}: ${w.row.means} between rounds, with no task or request beneath`, w.row.match);
      return idle('own-loop', `waits for its next item in its own loop${where}: ${w.row.means}, with no task or request beneath`, w.row.match);
    }
    const on = locks.waitObject?.();
    if (on !== undefined && !LATCH_LIKE.test(on.className)) {
      if (on.sharedWaiters >= SHARED_WAIT_MIN_THREADS && !on.owned) {
        return fromWaitObject(
          idle(
            'wait-object',
            `waits with ${on.sharedWaiters - 1} other threads on one ${shortClass(on.className)} that no thread holds: consumers of a work queue`,
            w.row.match,
          ),
        );
      }
      if (s.rootClass !== undefined && on.className === s.rootClass) {
        return fromWaitObject(idle('wait-object', `waits on its own ${shortClass(on.className)} object for work handed to it`, w.row.match));
      }
    }
    // Unknown means silent: deep in a thread of its own, with no task or request beneath, a wait for
    // an event no row explains is its own loop's as likely as a piece of work's (a shell reading its
    // user's next line through a vendor's buffer); only a lock others wait for (see classifyDump) or
    // CPU says work. A sleep is no wait for an event: a thread that sleeps deep in its code paces its work.
    const deep =
      dedicated && w.row.detail?.sleep !== true
        ? idle(
            'no-work-shown',
            `${w.row.means} ${s.appFramesBeneathWait} frames deep in its own thread (${caller}), with no task or request beneath: ` +
              'nothing shows it is inside a piece of work',
            w.row.match,
          )
        : working('in-task', `${w.row.means} ${s.appFramesBeneathWait} frames deep inside its work (${caller})`, w.row.match);
    return on !== undefined ? fromWaitObject(deep) : deep;
  }
  if (th.state === 'RUNNABLE') {
    // A native method no row knows, in a thread of its own: blocked in the kernel or computing, and one
    // dump cannot say which (cpu= between two dumps can: see threads/cpu-evidence.ts).
    const top = frames[0]!;
    if (top.location === 'Native Method' && !isJdkFrame(top) && (s.boundary === undefined || isThreadStart(s.boundary.row)))
      return working(
        'native',
        `RUNNABLE in the native method ${top.qualified}, in a thread of its own with no task or request beneath: ` +
          'running or blocked in the kernel, which one dump cannot tell (the CPU it uses between two dumps can)',
        top.qualified,
      );
    return working('running', `running ${s.activityFrame}`, s.activityFrame);
  }
  return working('in-task', `${th.state.toLowerCase().replace('_', ' ')} in ${s.activityFrame}`, s.activityFrame);
}

function shortClass(c: string): string {
  return c.slice(c.lastIndexOf('.') + 1);
}

function appFrames(frames: readonly StackFrame[]): number {
  let n = 0;
  for (const f of frames) if (!isJdkFrame(f) && !isSynthetic(f)) n++;
  return n;
}

/** Every thread of a dump, with what its lock graph adds (who owns what it waits for, who else waits there). */
export function classifyDump(dump: ThreadDump, graph: LockGraph): ThreadActivity[] {
  const threads = dump.threads;
  const out: ThreadActivity[] = new Array(threads.length);
  // Threads waiting on each object, counted once per lock when first asked (a pool's 100k workers
  // may share one condition; a dump of 200k threads may have 200k locks nobody asks about).
  const signalWaiters = new Int32Array(graph.locks.length).fill(-1);
  const acquiring = new Array<LockContext | undefined>(graph.locks.length);
  // One context for every thread that waits on an object: its wait object is looked up, for the
  // thread being classified, only when the verdict needs it (most such threads wait in their loop).
  let current = 0;
  const waitingOnObject: LockContext = { waitObject: () => waitObjectOf(graph, signalWaiters, current) };
  for (let i = 0; i < threads.length; i++) {
    const th = threads[i]!;
    current = i;
    out[i] = classifyThread(th, lockContext(dump, graph, acquiring, waitingOnObject, i));
  }
  // A thread that holds a lock others are blocked on is holding up work, whatever it waits for
  // itself (ThreadLogic's "waiting for event while blocking others"): never idle.
  for (const node of graph.locks) {
    const owner = node.owner;
    if (owner === null || out[owner]!.activity !== 'idle') continue;
    let blocked = 0;
    for (const w of node.waiters) if (w.thread !== owner && out[w.thread]!.activity === 'blocked') blocked++;
    if (blocked === 0) continue;
    const was = out[owner]!;
    out[owner] = working(
      'holds-lock',
      `holds ${node.lock.className}${node.lock.id ? ` <${node.lock.id}>` : ''} that ${blocked}` +
        ` blocked thread${blocked === 1 ? ' waits' : 's wait'} for; itself, it ${was.reason}`,
      was.frame,
    );
  }
  return out;
}

/** `acquiring` keeps one context per lock that has its owner: the waiters of one contended lock share it. */
function lockContext(dump: ThreadDump, graph: LockGraph, acquiring: Array<LockContext | undefined>, waitingOnObject: LockContext, i: number): LockContext {
  const th = dump.threads[i]!;
  if (th.locks.length === 0 && th.state !== 'BLOCKED') return NO_LOCKS;
  const w = graph.waits[i] ?? null;
  if (w === null) return th.state === 'BLOCKED' ? BLOCKED_ON_UNKNOWN : NO_LOCKS;
  if (w.kind === 'object-wait') return waitingOnObject;
  const node = graph.waitNodes[i] ?? undefined;
  const ownerIndex = graph.waitsFor[i];
  const owner = ownerIndex !== null && ownerIndex !== undefined ? dump.threads[ownerIndex]!.name : (th.lockOwnerName ?? null);
  const shared = node !== undefined && node.owner === (ownerIndex ?? null);
  const known = shared ? acquiring[node.index] : undefined;
  if (known !== undefined) return known;
  const lock = `${w.lock.className}${w.lock.id ? ` <${w.lock.id}>` : ''}`;
  const context = new AcquiringContext({ lock, owner });
  if (shared) acquiring[node.index] = context;
  return context;
}

const BLOCKED_ON_UNKNOWN: LockContext = { acquiring: { lock: 'a monitor', owner: null } };

/** The object thread `i` waits on for a signal, from the lock graph. `signalWaiters` keeps the counts made, by lock (-1: not counted yet). */
function waitObjectOf(graph: LockGraph, signalWaiters: Int32Array, i: number): WaitObject | undefined {
  const w = graph.waits[i];
  if (w === null || w === undefined || w.kind !== 'object-wait') return undefined;
  const node = graph.waitNodes[i] ?? undefined;
  if (node === undefined) return { className: w.lock.className, sharedWaiters: 1, owned: false };
  let waiting = signalWaiters[node.index]!;
  if (waiting < 0) {
    waiting = 0;
    for (const x of node.waiters) if (x.kind === 'object-wait') waiting++;
    signalWaiters[node.index] = waiting;
  }
  const owner = node.owner;
  return { className: w.lock.className, sharedWaiters: Math.max(1, waiting), owned: owner !== null && owner !== i };
}

/**
 * The piece of work beneath a thread's top, if its stack shows one: a request it handles, or a task of
 * a pool (not the thread's own run method). What makes a wait part of work rather than of a loop.
 */
export function workBeneath(th: ThreadEntry): string | undefined {
  if (th.frames.length === 0) return undefined;
  const s = stackShape(th.frames);
  if (s.request !== undefined) return s.request.row.means;
  const b = s.boundary?.row;
  if (b === undefined || isThreadStart(b)) return undefined;
  return b.role === 'pool-loop' ? `a task of ${b.means}` : b.means;
}

/** A thread in Thread.sleep: a loop between rounds when it sleeps in the same place again and again. */
export function isSleeping(th: ThreadEntry): boolean {
  if (th.stateDetail === 'sleeping') return true;
  const top = th.frames[0] === undefined ? undefined : knowledgeOf(th.frames[0]).wait;
  return top?.role === 'idle-outside-task' && top.detail?.sleep === true;
}
