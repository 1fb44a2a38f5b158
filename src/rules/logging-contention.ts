/**
 * Threads held by logging. The idea: a log call should cost microseconds; threads caught waiting
 * inside one (for an appender's lock, or on an asynchronous appender's full queue) are held by the
 * logging framework, and the thread that holds the lock (or the appender's worker) says why: a
 * write to a disk or a log collector that does not keep up. Which frames are the frameworks'
 * appenders is data (below, with the framework and what waiting there means).
 */
import type { Evidence } from '../model/findings.js';
import type { ThreadRef } from '../model/model.js';
import type { ThreadEntry } from '../model/thread-dump.js';
import { perStack } from '../threads/per-stack.js';
import { activityFrame, isJdkClass } from '../threads/thread-activity.js';
import { plural, threadEvidence } from './evidence.js';
import { lockSubject, lockWaits } from './held-up.js';
import { findingId, type FindingDraft, type Rule } from './rule.js';
import { threadsByStack } from './threads-by-stack.js';

interface LoggingFrame {
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
  { prefix: 'ch.qos.logback.core.OutputStreamAppender.', framework: 'logback', waitsFor: "an OutputStreamAppender's lock (file, console and socket appenders write under it)" },
  { prefix: 'ch.qos.logback.core.AppenderBase.doAppend', framework: 'logback', waitsFor: "a synchronized appender's monitor (AppenderBase.doAppend)" },
  { prefix: 'org.apache.log4j.AsyncAppender.append', framework: 'log4j 1', waitsFor: "an AsyncAppender's full buffer (blocking=true)", queue: true },
  { prefix: 'org.apache.log4j.AppenderSkeleton.doAppend', framework: 'log4j 1', waitsFor: "an appender's monitor (AppenderSkeleton.doAppend is synchronized)" },
  { prefix: 'org.apache.log4j.Category.callAppenders', framework: 'log4j 1', waitsFor: "a logger's monitor (Category.callAppenders is synchronized per logger)" },
  { prefix: 'org.apache.logging.log4j.core.appender.AsyncAppender.', framework: 'log4j 2', waitsFor: "an AsyncAppender's full queue (blocking=true)", queue: true },
  { prefix: 'com.lmax.disruptor.MultiProducerSequencer.next', framework: 'log4j 2 async loggers', waitsFor: "the async loggers' full ring buffer (the default queue-full policy waits)", queue: true },
  { prefix: 'org.apache.logging.log4j.core.appender.OutputStreamManager.', framework: 'log4j 2', waitsFor: "an OutputStreamManager's monitor (file and console appenders write under it)" },
  { prefix: 'org.apache.logging.log4j.core.appender.AbstractOutputStreamAppender.', framework: 'log4j 2', waitsFor: "an output stream appender's lock" },
  { prefix: 'java.util.logging.StreamHandler.publish', framework: 'java.util.logging', waitsFor: "a StreamHandler's monitor (publish is synchronized)" },
  { prefix: 'java.util.logging.FileHandler.publish', framework: 'java.util.logging', waitsFor: "a FileHandler's monitor (publish is synchronized)" },
  { prefix: 'java.util.logging.ConsoleHandler.publish', framework: 'java.util.logging', waitsFor: "a ConsoleHandler's monitor (publish is synchronized)" },
];

/** The threads that drain asynchronous appenders, by a frame of their loop. */
const ASYNC_WORKER_FRAMES = ['ch.qos.logback.core.AsyncAppenderBase$Worker.run', 'org.apache.log4j.AsyncAppender$Dispatcher.run', 'org.apache.logging.log4j.core.appender.AsyncAppender$AsyncAppenderEventDispatcher.run', 'org.apache.logging.log4j.core.appender.AsyncAppender$AsyncThread.run', 'com.lmax.disruptor.BatchEventProcessor.run'];


/** Any of the table's prefixes, as one test: most frames of most threads are tested and match none. */
const ANY_LOGGING_FRAME = new RegExp(`^(?:${LOGGING_FRAMES.map((r) => r.prefix.replace(/[.$]/g, '\\$&')).join('|')})`);

/** Where a waiting thread waits inside a log call: the appender frame, with only the JDK's frames above it. */
function loggingWait(th: Pick<ThreadEntry, 'frames' | 'state'>): LoggingFrame | undefined {
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
  return row === undefined ? undefined : subjectOf(row);
}

const subjectOf = (row: LoggingFrame) => `${row.framework} ${row.prefix.replace(/\.$/, '')}`;

/** A thread's write, in words, when its top frames are one (the destination that does not keep up). */
function writing(th: ThreadEntry): string | undefined {
  const top = th.frames.slice(0, 12).map((f) => f.qualified);
  if (top.some((f) => /Socket(?:Dispatcher|OutputStream)\.(?:write|socketWrite)|NioSocketImpl\.(?:write|implWrite)/.test(f))) return 'writing to a socket (a log collector or syslog that does not read fast enough)';
  if (top.some((f) => /FileOutputStream\.write|FileDispatcherImpl\.write|FileChannelImpl\.write/.test(f))) return 'writing to a file (a slow or full disk, or stdout piped to a reader that does not read)';
  return undefined;
}

function describe(th: ThreadEntry): string {
  return writing(th) ?? `${th.state}${th.stateDetail ? ` (${th.stateDetail})` : ''} in ${activityFrame(th)}`;
}

export const loggingContention: Rule = {
  meta: {
    id: 'logging-contention',
    defaultSeverity: 'warning',
    title: 'Threads held by logging',
    description:
      "Threads waiting inside a log call: for an appender's lock (logback, log4j 1 and 2, java.util.logging handlers) or on an asynchronous appender's full queue, with the thread that holds the lock (or drains the queue) and what it does (a write to a disk or a socket that does not keep up). Error from 10 threads.",
    remedy:
      "Find what the appender waits for (the holder's write: a slow disk, a log collector, stdout piped to nothing); log less at that level, put the slow destination behind an asynchronous appender that drops rather than blocks (logback neverBlock=true, log4j 2 a discarding queue-full policy), and never log synchronously to a network destination from request threads.",
    options: {
      minThreads: { default: 3, description: 'Threads that must wait in logging for a finding.' },
      errorThreads: { default: 10, description: 'Threads waiting in logging that make it an error.' },
    },
  },
  check({ model, options }) {
    const min = Number(options['minThreads']);
    const errorAt = Number(options['errorThreads']);
    const last = model.dumps.length - 1;
    if (last < 0) return [];
    const threads = model.dumps[last]!.threads;
    const groups = new Map<LoggingFrame, number[]>();
    for (const i of threadsByStack(model, last, (frames, state) => loggingWait({ frames, state }) !== undefined)) {
      if (model.activity[last]![i]!.activity === 'idle') continue;
      const row = loggingWait(threads[i]!)!;
      const list = groups.get(row);
      if (list === undefined) groups.set(row, [i]);
      else list.push(i);
    }
    const waits = lockWaits(model, last);
    const ref = (i: number): ThreadRef => model.threadRefs[last]![i]!;
    const drafts: FindingDraft[] = [];
    for (const [row, waiters] of groups) {
      if (waiters.length < min) continue;
      // Who they wait for: the lock's owner, or, for a full queue, the appender's worker.
      const locks = [...new Set(waiters.map((w) => waits.lockOf(w)).filter((l) => l !== undefined))];
      const owners = [...new Set(locks.flatMap((l) => (l.owner !== null ? [l.owner.thread] : [])))];
      const workers = row.queue === true ? threadsByStack(model, last, (frames) => frames.some((f) => ASYNC_WORKER_FRAMES.includes(f.qualified))) : [];
      const holders = [...owners, ...workers];
      const held = holders.map((h) => `"${threads[h]!.name}" ${row.queue === true ? 'drains the queue and is' : 'holds it and is'} ${describe(threads[h]!)}`);
      const evidence: Evidence[] = [
        ...holders.map((h) => threadEvidence(model, ref(h), row.queue === true ? `the appender's worker: ${describe(threads[h]!)}` : `holds the lock: ${describe(threads[h]!)}`)),
        ...waiters.slice(0, 50).map((w) => threadEvidence(model, ref(w), `waits for ${row.waitsFor}`)),
      ];
      // With a heap dump: the asynchronous appenders' queues, full ones first.
      const queues = row.queue === true ? model.asyncAppenders.filter((a) => a.framework === row.framework || row.framework.startsWith(a.framework)) : [];
      const full = queues.filter((q) => q.capacity !== null && q.queueSize !== null && q.queueSize >= q.capacity);
      const queueText =
        queues.length === 0
          ? ''
          : ` In the heap: ${(full.length > 0 ? full : queues).map((q) => `${q.name !== null ? `"${q.name}" ` : ''}${q.className} holds ${q.queueSize ?? '?'} of ${q.capacity ?? '?'} events`).join('; ')}.`;
      for (const q of full.length > 0 ? full : queues) evidence.push({ kind: 'heap-object', source: q.input, id: q.id, className: q.className, note: `queue ${q.queueSize ?? '?'} of ${q.capacity ?? '?'}` });
      const callers = [...new Set(waiters.map((w) => threads[w]!.frames.find((f) => !isJdkClass(f.qualified) && !f.qualified.startsWith(row.prefix.split('.').slice(0, 3).join('.')))?.qualified).filter((f) => f !== undefined))];
      drafts.push({
        subject: subjectOf(row),
        ...(waiters.length >= errorAt ? { severity: 'error' as const } : {}),
        message:
          `${plural(waiters.length, 'thread waits', 'threads wait')} inside a log call for ${row.waitsFor} (${row.framework}): ${waiters.slice(0, 5).map((w) => `"${threads[w]!.name}"`).join(', ')}${waiters.length > 5 ? ', ...' : ''}. ` +
          (held.length > 0 ? `${held.join('; ')}.` : 'No thread of the dump is named as what they wait for.') +
          queueText,
        facts: {
          framework: row.framework,
          appenderFrame: row.prefix.replace(/\.$/, ''),
          asyncQueueFull: row.queue === true,
          waiters: waiters.map((w) => threads[w]!.name),
          waiterCount: waiters.length,
          holders: holders.map((h) => threads[h]!.name),
          holderDoing: holders.map((h) => describe(threads[h]!)),
          loggedFrom: callers.slice(0, 10),
          queues: (full.length > 0 ? full : queues).map((q) => `${q.name ?? q.className}: ${q.queueSize ?? '?'}/${q.capacity ?? '?'}`),
        },
        evidence,
        causedBy: locks.map((l) => findingId('lock-contention', lockSubject(l))),
        impact: waiters.length * 2,
      });
    }
    return drafts;
  },
};
