/**
 * Event-loop threads: the frame that runs each framework's loop (a thread whose stack holds it is an
 * I/O thread), and the packages of the loop's own code, so what runs above it is told apart as the
 * application's. The loops are the registry's `event-loop` rows.
 */
import { frameIndexOf, lookupFrame, type RowOf } from '../knowledge/index.js';
import type { ThreadEntry } from '../model/thread-dump.js';
import { perStack } from './per-stack.js';
import { isJdkFrame } from './thread-activity.js';

export interface EventLoopKind {
  /** The loop's run method, as dumps print it. */
  readonly frame: string;
  readonly framework: string;
  /** Packages of the loop's own code (its I/O handling, pipeline and codecs). */
  readonly ownPackages: readonly string[];
}

const LOOPS = frameIndexOf('event-loop');

/**
 * How far up from the bottom of a stack a loop's run method can sit: below it are only the thread's
 * start and the frameworks' thin wrappers (Thread.run, FastThreadLocalRunnable, ThreadExecutorMap).
 * Searching no further keeps this cheap on the 200,000 threads of a big dump.
 */
const LOOP_DEPTH = 12;

/** The loop a thread runs, when its stack holds one (searched from the bottom, where loops sit). */
export function eventLoopOf(th: Pick<ThreadEntry, 'frames'>): EventLoopKind | undefined {
  return loopOfStack(th.frames);
}

const loopOfStack = perStack((frames): EventLoopKind | undefined => {
  const end = Math.max(0, frames.length - LOOP_DEPTH);
  for (let i = frames.length - 1; i >= end; i--) {
    const row = lookupFrame(LOOPS, frames[i]!);
    if (row !== undefined) return kindOf(row, frames[i]!.qualified);
  }
  return undefined;
});

const kinds = new Map<string, EventLoopKind>();

function kindOf(row: RowOf<'event-loop'>, frame: string): EventLoopKind {
  let k = kinds.get(frame);
  if (k === undefined) {
    k = { frame, framework: row.detail.framework, ownPackages: row.detail.ownPackages };
    kinds.set(frame, k);
  }
  return k;
}

/** The top-most frame above the loop that is neither the JDK's nor the loop's own: the application's code it runs. */
export function applicationFrameOf(th: ThreadEntry, loop: EventLoopKind): string | undefined {
  for (const f of th.frames) {
    if (f.qualified === loop.frame) return undefined;
    if (isJdkFrame(f) || loop.ownPackages.some((p) => f.qualified.startsWith(p))) continue;
    return f.qualified;
  }
  return undefined;
}
