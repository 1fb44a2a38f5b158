/**
 * Threads held by logging. The idea: a log call should cost microseconds; threads caught waiting
 * inside one (for an appender's lock, or on an asynchronous appender's full queue) are held by the
 * logging framework, and the thread that holds the lock (or the appender's worker) says why: a
 * write to a disk or a log collector that does not keep up. A wait is inside a log call when the
 * logger API the thread called lies beneath it (support/logging-frames.ts), whatever appender or
 * manager the wait is in; the frameworks' own appenders and the loggers' APIs are data (the registry).
 */
import { isJdkClass } from '../knowledge/index.js';
import type { Evidence } from '../model/findings.js';
import type { ThreadRef } from '../model/model.js';
import type { ThreadEntry } from '../model/thread-dump.js';
import { activityFrame } from '../threads/thread-activity.js';
import type { FindingDraft, Rule } from './rule.js';
import { stuckThreadsSubjectOf } from './support/cause-links.js';
import { plural, threadEvidence } from './support/evidence.js';
import { lockSubject, lockWaits } from './support/held-up.js';
import { isLoggingFrame, loggingSite, type LoggingWait, loggingWaitOf } from './support/logging-frames.js';
import { withCode } from './support/thread-code.js';
import { threadsByStack } from './support/threads-by-stack.js';

export const loggingContention: Rule = {
  meta: {
    id: 'logging-contention',
    defaultSeverity: 'warning',
    title: 'Threads held by logging',
    description:
      "Threads waiting inside a log call: for an appender's lock (logback, log4j 1 and 2, java.util.logging " +
      "handlers) or on an asynchronous appender's full queue, with the thread that holds the lock (or drains " +
      'the queue) and what it does (a write to a disk or a socket that does not keep up). A wait is inside a log call when the ' +
      "first API beneath it is a logger's (slf4j, log4j 1 and 2, logback, java.util.logging, commons-logging, JBoss Logging), " +
      "whatever lies between (a vendor's appender, a manager's subclass). Error from 10 threads.",
    remedy:
      "Find what the appender waits for (the holder's write: a slow disk, a log collector, stdout piped to nothing); log less at " +
      'that level, put the slow destination behind an asynchronous appender that drops rather than blocks (logback neverBlock=true, ' +
      'log4j 2 a discarding queue-full policy), and never log synchronously to a network destination from request threads.',
    options: {
      minThreads: { type: 'integer', min: 1, default: 3, description: 'Threads that must wait in logging for a finding.' },
      errorThreads: { type: 'integer', min: 1, default: 10, description: 'Threads waiting in logging that make it an error.' },
    },
  },
  check({ model, options }) {
    const min = Number(options['minThreads']);
    const errorAt = Number(options['errorThreads']);
    const last = model.dumps.length - 1;
    if (last < 0) return [];
    const threads = model.dumps[last]!.threads;
    const waits = lockWaits(model, last);
    // Threads waiting for one lock are one contention, whichever appender frame each waits in (a
    // layout encoding into the manager, the manager's own flush); without a lock, one per place.
    const groups = new Map<string, { wait: LoggingWait; waiters: number[] }>();
    for (const i of threadsByStack(model, last, (frames, state) => loggingWaitOf({ frames, state }) !== undefined)) {
      if (model.activity[last]![i]!.activity === 'idle') continue;
      const wait = loggingWaitOf(threads[i]!)!;
      const lock = waits.lockOf(i);
      const key = lock !== undefined && wait.row.detail.queue !== true ? `${lock.dump}:${lock.lock.id}` : wait.subject;
      const group = groups.get(key);
      if (group === undefined) groups.set(key, { wait, waiters: [i] });
      else group.waiters.push(i);
    }
    const ref = (i: number): ThreadRef => model.threadRefs[last]![i]!;
    const drafts: FindingDraft[] = [];
    for (const { wait, waiters } of groups.values()) {
      if (waiters.length < min) continue;
      const row = wait.row;
      // Who they wait for: the lock's owner, or, for a full queue, the appender's worker.
      const locks = [...new Set(waiters.map((w) => waits.lockOf(w)).filter((l) => l !== undefined))];
      const owners = [...new Set(locks.flatMap((l) => (l.owner !== null ? [l.owner.thread] : [])))];
      const workers = row.detail.queue === true ? threadsByStack(model, last, (frames) => frames.some((f) => ASYNC_WORKER_FRAMES.includes(f.qualified))) : [];
      const holders = [...owners, ...workers];
      // An appender a row names says what the wait is; past the rows (a vendor's appender or manager), the lock and where it is taken do.
      const means =
        row.detail.api !== true
          ? row.means
          : `${locks.length > 0 ? `${locks[0]!.lock.className} <${locks[0]!.lock.id}>` : 'what it waits for'} in ${wait.waitsIn}` +
            ' (code the log call runs, which no appender row names)';
      const call = row.detail.api === true && wait.loggerCall !== undefined ? ` (${wait.loggerCall})` : '';
      const held = holders.map(
        (h) => `"${threads[h]!.name}" ${row.detail.queue === true ? 'drains the queue and is' : 'holds it and is'} ${describe(threads[h]!)}`,
      );
      const evidence: Evidence[] = withCode(model, [
        ...holders.map((h) =>
          threadEvidence(
            model,
            ref(h),
            row.detail.queue === true ? `the appender's worker: ${describe(threads[h]!)}` : `holds the lock: ${describe(threads[h]!)}`,
          ),
        ),
        ...waiters.slice(0, 50).map((w) => threadEvidence(model, ref(w), `waits for ${means}`)),
      ]);
      // With a heap dump: the asynchronous appenders' queues, full ones first.
      const queues =
        row.detail.queue === true
          ? model.asyncAppenders.filter((a) => a.framework === row.detail.framework || row.detail.framework.startsWith(a.framework))
          : [];
      const full = queues.filter((q) => q.capacity !== null && q.queueSize !== null && q.queueSize >= q.capacity);
      const queueText =
        queues.length === 0
          ? ''
          : ' In the heap: ' +
            (full.length > 0 ? full : queues)
              .map((q) => `${q.name !== null ? `"${q.name}" ` : ''}${q.className} holds ${q.queueSize ?? '?'} of ${q.capacity ?? '?'} events`)
              .join('; ') +
            '.';
      for (const q of full.length > 0 ? full : queues)
        evidence.push({ kind: 'heap-object', source: q.input, id: q.id, className: q.className, note: `queue ${q.queueSize ?? '?'} of ${q.capacity ?? '?'}` });
      const callers = [
        ...new Set(
          waiters
            .map((w) => {
              // Beneath the logger call when the stack shows it: the application's frame that called it.
              const called = loggingWaitOf(threads[w]!)?.loggerCall;
              const from = called !== undefined ? threads[w]!.frames.findIndex((f) => f.qualified === called) + 1 : 0;
              return threads[w]!.frames.slice(from).find(
                (f) => !isJdkClass(f.qualified) && !isLoggingFrame(f) && !f.qualified.startsWith(loggingSite(row).split('.').slice(0, 3).join('.')),
              )?.qualified;
            })
            .filter((f) => f !== undefined),
        ),
      ];
      drafts.push({
        subject: wait.subject,
        ...(waiters.length >= errorAt ? { severity: 'error' as const } : {}),
        message:
          `${plural(waiters.length, 'thread waits', 'threads wait')} inside a log call${call} for ${means} (${row.detail.framework}): ${waiters
            .slice(0, 5)
            .map((w) => `"${threads[w]!.name}"`)
            .join(', ')}${waiters.length > 5 ? ', ...' : ''}. ` +
          (held.length > 0 ? `${held.join('; ')}.` : 'No thread of the dump is named as what they wait for.') +
          queueText,
        facts: {
          framework: row.detail.framework,
          appenderFrame: row.detail.api === true ? wait.waitsIn : loggingSite(row),
          loggerCall: wait.loggerCall ?? null,
          asyncQueueFull: row.detail.queue === true,
          waiters: waiters.map((w) => threads[w]!.name),
          waiterCount: waiters.length,
          holders: holders.map((h) => threads[h]!.name),
          holderDoing: holders.map((h) => describe(threads[h]!)),
          loggedFrom: callers.slice(0, 10),
          queues: (full.length > 0 ? full : queues).map((q) => `${q.name ?? q.className}: ${q.queueSize ?? '?'}/${q.capacity ?? '?'}`),
        },
        evidence,
        causedBy: [
          ...locks.map((l) => ({ rule: 'lock-contention', subject: lockSubject(l) })),
          // A full queue's worker stuck in one place (its write does not return) is why the queue does not drain.
          ...workers.flatMap((w) => {
            const subject = stuckThreadsSubjectOf(model, ref(w));
            return subject !== undefined ? [{ rule: 'stuck-threads', subject }] : [];
          }),
        ],
        impact: waiters.length * 2,
      });
    }
    return drafts;
  },
};

/** The threads that drain asynchronous appenders, by a frame of their loop. */
const ASYNC_WORKER_FRAMES = [
  'ch.qos.logback.core.AsyncAppenderBase$Worker.run',
  'org.apache.log4j.AsyncAppender$Dispatcher.run',
  'org.apache.logging.log4j.core.appender.AsyncAppender$AsyncAppenderEventDispatcher.run',
  'org.apache.logging.log4j.core.appender.AsyncAppender$AsyncThread.run',
  'com.lmax.disruptor.BatchEventProcessor.run',
];

/** A thread's write, in words, when its top frames are one (the destination that does not keep up). */
function writing(th: ThreadEntry): string | undefined {
  const top = th.frames.slice(0, 12).map((f) => f.qualified);
  if (top.some((f) => /Socket(?:Dispatcher|OutputStream)\.(?:write|socketWrite)|NioSocketImpl\.(?:write|implWrite)/.test(f)))
    return 'writing to a socket (a log collector or syslog that does not read fast enough)';
  if (top.some((f) => /FileOutputStream\.write|FileDispatcherImpl\.write|FileChannelImpl\.write/.test(f)))
    return 'writing to a file (a slow or full disk, or stdout piped to a reader that does not read)';
  return undefined;
}

function describe(th: ThreadEntry): string {
  return writing(th) ?? `${th.state}${th.stateDetail ? ` (${th.stateDetail})` : ''} in ${activityFrame(th)}`;
}
