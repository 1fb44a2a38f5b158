/** Carriers of the virtual-thread scheduler: what the pinning rule counts and other rules link to it by. */
import type { ThreadEntry } from '../../model/thread-dump.js';
import { perStack } from '../../threads/per-stack.js';

const RUNS_CONTINUATION = 'java.lang.VirtualThread.runContinuation';

// Also asked per thread (isCarrier, by other rules): kept per shared stack.
export const runsContinuation = perStack((frames) => frames.some((f) => f.qualified === RUNS_CONTINUATION));

/** Whether a thread is a carrier of the virtual-thread scheduler (it runs continuations). */
export function isCarrier(th: ThreadEntry): boolean {
  return !th.virtual && runsContinuation(th.frames);
}
