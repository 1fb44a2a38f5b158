/** Frames that are a wait though the thread reads RUNNABLE: a blocking read or write of a socket or a file (the registry's `blocking-io` rows). */
import { frameIndexOf, lookupFrame } from '../knowledge/index.js';
import type { ThreadEntry } from '../model/thread-dump.js';

const BLOCKING_IO = frameIndexOf('blocking-io');

/** Whether the thread's top frame is a blocking socket or file call. */
export function inBlockingIo(th: ThreadEntry): boolean {
  const top = th.frames[0];
  return top !== undefined && lookupFrame(BLOCKING_IO, top) !== undefined;
}
