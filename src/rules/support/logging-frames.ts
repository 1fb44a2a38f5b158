/**
 * Where a thread waits inside a log call. The idea: a thread is held by logging when the public API
 * it called, read from the wait towards its start, is a logger's (slf4j, log4j 1 and 2, logback,
 * java.util.logging, commons-logging, JBoss logging), whatever lies between that call and the wait:
 * the frameworks' appenders the registry names, or a vendor's appender and a subclass of a manager in
 * a package no row knows. Shared by the logging-contention rule and the rules that link a held
 * thread to its finding.
 */
import { frameIndexOf, isJdkClass, lookupFrame, type RowOf } from '../../knowledge/index.js';
import type { StackFrame, ThreadEntry } from '../../model/thread-dump.js';
import { perStack } from '../../threads/per-stack.js';

/** A logging frame of the registry: an appender's frame where a thread waits, or a logger's API (`api`). */
export type LoggingFrame = RowOf<'logging-wait'>;

/** How a waiting thread is held inside a log call. */
export interface LoggingWait {
  /** The appender's frame a row names (what the wait means), else the logger API the thread called. */
  readonly row: LoggingFrame;
  /** The frame it waits in: the first beneath the JDK's (an appender's, or a vendor's manager). */
  readonly waitsIn: string;
  /** The logger API frame the application called, when the stack shows it. */
  readonly loggerCall?: string;
  /** The subject of its logging-contention finding. */
  readonly subject: string;
}

const LOGGING_FRAMES = frameIndexOf('logging-wait');

/**
 * Public APIs of another meaning: met between the wait and a logger call, the wait is theirs (an
 * appender that leases a database connection waits for the pool, which names it), and met before
 * any logger call, the wait is not inside one (the task or request beneath the thread's code).
 */
const OTHER_APIS = frameIndexOf('lease-wait', 'client-call', 'request', 'pool-loop', 'boundary', 'event-loop', 'next-message');

/** Where a waiting thread waits inside a log call: walked from the wait towards the thread's start. */
export function loggingWaitOf(th: Pick<ThreadEntry, 'frames' | 'state'>): LoggingWait | undefined {
  if (th.state === 'RUNNABLE' || th.state === 'NEW' || th.state === 'TERMINATED') return undefined;
  return loggingWaitOfStack(th.frames);
}

const loggingWaitOfStack = perStack((frames): LoggingWait | undefined => {
  let appender: LoggingFrame | undefined;
  let waitsIn: StackFrame | undefined;
  for (const f of frames) {
    const row = lookupFrame(LOGGING_FRAMES, f);
    if (row === undefined) {
      // A JDK frame is the wait itself (a monitor, a park, a queue's put); the first other is where it is taken.
      if (waitsIn === undefined && !isJdkClass(f.qualified)) waitsIn = f;
      if (lookupFrame(OTHER_APIS, f) !== undefined) break;
      continue;
    }
    waitsIn ??= f;
    if (row.detail.api !== true) {
      // A framework's appender names the wait (a lock, a full queue) when the wait is in it; beneath
      // another's frame (a vendor's appender it calls) the thread holds it and waits for that other.
      if (waitsIn === f) appender = row;
      continue;
    }
    // The logger API the thread called: the wait above it is logging's.
    const named = appender ?? row;
    return {
      row: named,
      waitsIn: waitsIn.qualified,
      loggerCall: f.qualified,
      // An appender a row names is the subject; else the class the thread waits in (a vendor's manager).
      subject: appender !== undefined ? loggingSubject(appender) : `${row.detail.framework} ${waitsIn.className}`,
    };
  }
  // An appender of the frameworks' with no logger call beneath (a dump cut short, a bridge the rows do
  // not name): the appender frame is enough when only the JDK's frames lie above it.
  return appender !== undefined && waitsIn !== undefined ? { row: appender, waitsIn: waitsIn.qualified, subject: loggingSubject(appender) } : undefined;
});

/** The subject of the logging-contention finding a thread waiting inside a log call belongs to, if it waits there. */
export function loggingWaitSubject(th: ThreadEntry): string | undefined {
  return loggingWaitOf(th)?.subject;
}

/** The appender's class or method the row names. */
export const loggingSite = (row: LoggingFrame) => row.match.replace(/\.?\*$/, '');

const loggingSubject = (row: LoggingFrame) => `${row.detail.framework} ${loggingSite(row)}`;

/** Whether the registry names this frame as logging's (an appender's, or a logger's API). */
export const isLoggingFrame = (f: StackFrame): boolean => lookupFrame(LOGGING_FRAMES, f) !== undefined;
