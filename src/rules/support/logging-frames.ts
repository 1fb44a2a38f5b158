/**
 * Where a thread waits inside a log call: the appenders' frames, by framework. Shared by the
 * logging-contention rule and the rules that link a held thread to its finding.
 */
import { frameIndexOf, isJdkClass, lookupFrame, type RowOf } from '../../knowledge/index.js';
import type { ThreadEntry } from '../../model/thread-dump.js';
import { perStack } from '../../threads/per-stack.js';

/** An appender frame where a logging thread waits (the registry's `logging-wait` rows). */
export type LoggingFrame = RowOf<'logging-wait'>;

const LOGGING_FRAMES = frameIndexOf('logging-wait');

/** Where a waiting thread waits inside a log call: the appender frame, with only the JDK's frames above it. */
export function loggingWait(th: Pick<ThreadEntry, 'frames' | 'state'>): LoggingFrame | undefined {
  if (th.state === 'RUNNABLE' || th.state === 'NEW' || th.state === 'TERMINATED') return undefined;
  return loggingFrameOnTop(th.frames);
}

const loggingFrameOnTop = perStack((frames): LoggingFrame | undefined => {
  for (const f of frames) {
    const row = lookupFrame(LOGGING_FRAMES, f);
    if (row !== undefined) return row;
    if (!isJdkClass(f.qualified)) return undefined;
  }
  return undefined;
});

/** The subject of the logging-contention finding a thread waiting inside a log call belongs to, if it waits there. */
export function loggingWaitSubject(th: ThreadEntry): string | undefined {
  const row = loggingWait(th);
  return row === undefined ? undefined : loggingSubject(row);
}

/** The appender's class or method the row names. */
export const loggingSite = (row: LoggingFrame) => row.match.replace(/\.?\*$/, '');

export const loggingSubject = (row: LoggingFrame) => `${row.detail.framework} ${loggingSite(row)}`;
