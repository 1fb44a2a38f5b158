/**
 * Where a thread waits inside a log call: the appenders' frames, by framework. Shared by the
 * logging-contention rule and the rules that link a held thread to its finding.
 */
import type { ThreadEntry } from '../../model/thread-dump.js';
import { perStack } from '../../threads/per-stack.js';
import { isJdkClass } from '../../threads/thread-activity.js';

export interface LoggingFrame {
  /** A frame's qualified name starts with this. */
  readonly prefix: string;
  readonly framework: string;
  /** What a thread waiting here waits for. */
  readonly waitsFor: string;
  /** A full queue of an asynchronous appender (else a lock). */
  readonly queue?: boolean;
}

/** The appenders' frames where a logging thread waits, by framework (their sources: the frameworks' appender classes). */
const LOGGING_FRAMES: readonly LoggingFrame[] = [
  { prefix: 'ch.qos.logback.core.AsyncAppenderBase.put', framework: 'logback', waitsFor: "an AsyncAppender's full queue (neverBlock=false)", queue: true },
  {
    prefix: 'ch.qos.logback.core.OutputStreamAppender.',
    framework: 'logback',
    waitsFor: "an OutputStreamAppender's lock (file, console and socket appenders write under it)",
  },
  { prefix: 'ch.qos.logback.core.AppenderBase.doAppend', framework: 'logback', waitsFor: "a synchronized appender's monitor (AppenderBase.doAppend)" },
  { prefix: 'org.apache.log4j.AsyncAppender.append', framework: 'log4j 1', waitsFor: "an AsyncAppender's full buffer (blocking=true)", queue: true },
  { prefix: 'org.apache.log4j.AppenderSkeleton.doAppend', framework: 'log4j 1', waitsFor: "an appender's monitor (AppenderSkeleton.doAppend is synchronized)" },
  {
    prefix: 'org.apache.log4j.Category.callAppenders',
    framework: 'log4j 1',
    waitsFor: "a logger's monitor (Category.callAppenders is synchronized per logger)",
  },
  {
    prefix: 'org.apache.logging.log4j.core.appender.AsyncAppender.',
    framework: 'log4j 2',
    waitsFor: "an AsyncAppender's full queue (blocking=true)",
    queue: true,
  },
  {
    prefix: 'com.lmax.disruptor.MultiProducerSequencer.next',
    framework: 'log4j 2 async loggers',
    waitsFor: "the async loggers' full ring buffer (the default queue-full policy waits)",
    queue: true,
  },
  {
    prefix: 'org.apache.logging.log4j.core.appender.OutputStreamManager.',
    framework: 'log4j 2',
    waitsFor: "an OutputStreamManager's monitor (file and console appenders write under it)",
  },
  { prefix: 'org.apache.logging.log4j.core.appender.AbstractOutputStreamAppender.', framework: 'log4j 2', waitsFor: "an output stream appender's lock" },
  { prefix: 'java.util.logging.StreamHandler.publish', framework: 'java.util.logging', waitsFor: "a StreamHandler's monitor (publish is synchronized)" },
  { prefix: 'java.util.logging.FileHandler.publish', framework: 'java.util.logging', waitsFor: "a FileHandler's monitor (publish is synchronized)" },
  { prefix: 'java.util.logging.ConsoleHandler.publish', framework: 'java.util.logging', waitsFor: "a ConsoleHandler's monitor (publish is synchronized)" },
];

/** Any of the table's prefixes, as one test: most frames of most threads are tested and match none. */
const ANY_LOGGING_FRAME = new RegExp(`^(?:${LOGGING_FRAMES.map((r) => r.prefix.replace(/[.$]/g, '\\$&')).join('|')})`);

/** Where a waiting thread waits inside a log call: the appender frame, with only the JDK's frames above it. */
export function loggingWait(th: Pick<ThreadEntry, 'frames' | 'state'>): LoggingFrame | undefined {
  if (th.state === 'RUNNABLE' || th.state === 'NEW' || th.state === 'TERMINATED') return undefined;
  return loggingFrameOnTop(th.frames);
}

const loggingFrameOnTop = perStack((frames): LoggingFrame | undefined => {
  for (const f of frames) {
    const row = ANY_LOGGING_FRAME.test(f.qualified) ? LOGGING_FRAMES.find((r) => f.qualified.startsWith(r.prefix)) : undefined;
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

export const loggingSubject = (row: LoggingFrame) => `${row.framework} ${row.prefix.replace(/\.$/, '')}`;
