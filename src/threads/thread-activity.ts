/**
 * Is a thread idle (waiting for work in its pool, a selector loop, JVM housekeeping) or busy?
 * The markers are data: frames that mean "this thread has nothing to do".
 */
import type { StackFrame, ThreadEntry } from '../model/thread-dump.js';
import { perStack } from './per-stack.js';

/** A frame (`Class.method`, suffix match) anywhere in the top of the stack that means idle. */
export const IDLE_FRAME_MARKERS: readonly string[] = [
  'ThreadPoolExecutor.getTask',
  'ForkJoinPool.awaitWork',
  'ForkJoinPool.awaitQuiescence',
  'ScheduledThreadPoolExecutor$DelayedWorkQueue.take',
  'QueuedThreadPool.idleJobPoll',
  'QueuedThreadPool$Runner.idleJobPoll',
  'TimerThread.mainLoop',
  'ReferenceQueue.remove',
  'Reference.waitForReferencePendingList',
  'Reference$ReferenceHandler.run',
  'EPoll.wait',
  'EPollArrayWrapper.epollWait',
  'EPollArrayWrapper.poll',
  'KQueue.poll',
  'KQueue.kevent0',
  'KQueueArrayWrapper.kevent0',
  'WindowsSelectorImpl$SubSelector.poll0',
  'PollArrayWrapper.poll0',
  'Net.poll',
  'SelectorImpl.select',
  'NioEventLoop.select',
  'EpollEventLoop.epollWait',
  'Net.accept',
  'ServerSocketChannelImpl.accept',
  'PlainSocketImpl.socketAccept',
  'NioEndpoint$Poller.run',
  'HashedWheelTimer$Worker.waitForNextTick',
  'CleanerImpl.run',
  'Signal.dispatch',
  // HTTP client housekeeping: connection-pool cleanup and timeout watchdogs.
  'okio.AsyncTimeout.awaitTimeout',
  'okhttp3.ConnectionPool.lambda$new$0',
  'okhttp3.ConnectionPool$1.run',
  'IdleConnectionEvictor$1.run',
];

/**
 * Methods of background threads that wait for work in their own loop: idle when the thread waits
 * (WAITING / TIMED_WAITING) right there, that is when this is its first frame outside the JDK. The same
 * thread doing its work (a create thread stuck connecting to the database) has other frames on top.
 */
export const IDLE_WAIT_SITES: readonly string[] = [
  // Druid's pool threads: the creator waits on `empty` until a borrower needs a connection; the destroyer sleeps between runs.
  'com.alibaba.druid.pool.DruidDataSource$CreateConnectionThread.run',
  'com.alibaba.druid.pool.DruidDataSource$DestroyConnectionThread.run',
];

const MAX_DEPTH = 14;

// Frames are interned per parse, so the answer per frame object is computed once.
const idleFrameCache = new WeakMap<StackFrame, boolean>();

function isIdleFrame(f: StackFrame): boolean {
  let v = idleFrameCache.get(f);
  if (v === undefined) {
    v = IDLE_FRAME_MARKERS.some((m) => f.qualified.endsWith(m));
    idleFrameCache.set(f, v);
  }
  return v;
}

const hasIdleFrameOnTop = perStack((frames) => {
  const n = Math.min(frames.length, MAX_DEPTH);
  for (let i = 0; i < n; i++) if (isIdleFrame(frames[i]!)) return true;
  return false;
});

/** True when the thread waits for work rather than doing or waiting for something. */
export function isIdle(th: ThreadEntry): boolean {
  // A worker running a long task that is itself a wait loop (a selector, a pool's cleanup) holds its
  // Worker lock yet has nothing to do: the frames decide, not the lock.
  const frames = th.frames;
  if (frames.length === 0) return true; // JVM-internal threads (GC, compiler, VM Thread)
  if (hasIdleFrameOnTop(frames)) return true;
  return (th.state === 'WAITING' || th.state === 'TIMED_WAITING') && IDLE_WAIT_SITES.includes(activityFrame(th));
}

const SLEEP_FRAME = /^java\.lang\.Thread\.sleep/; // sleep, sleep0 (JDK 21), sleepNanos0 (JDK 25)

/** A thread in Thread.sleep: a loop between rounds when it sleeps in the same place again and again. */
export function isSleeping(th: ThreadEntry): boolean {
  return th.stateDetail === 'sleeping' || (th.frames.length > 0 && SLEEP_FRAME.test(th.frames[0]!.qualified));
}

/** Top frames outside the JDK's own waiting machinery: what a busy thread is really doing. */
export function activityFrame(th: ThreadEntry): string {
  return activityFrameOf(th.frames);
}

const activityFrameOf = perStack((frames) => {
  for (const f of frames) {
    const c = f.className;
    if (
      c.startsWith('java.') ||
      c.startsWith('jdk.internal.') ||
      c.startsWith('sun.') ||
      c.startsWith('jrockit.') ||
      c.startsWith('com.ibm.oti.')
    )
      continue;
    return f.qualified;
  }
  return frames[0]?.qualified ?? '(no stack)';
});
