/**
 * logging-contention on a real JVM running Debian's logback 1.2 (fixtures/generate-runtime-incidents.sh):
 * request threads waiting for an appender's lock whose holder is stuck writing to a log collector
 * that stopped reading, and reporters parked on an AsyncAppender's full queue behind a worker stuck
 * the same way; two threads that log to a fast appender are the control. Producers parked on a
 * full queue count as working (held by back-pressure), not as a queue's idle consumers. The heap
 * dump taken after the thread dumps gives the queue's fill.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, test } from 'vitest';

import { causalSummary } from '../../src/report/causal-summary.js';
import { analyseFiles, analyseIncident, INCIDENTS, truthOf } from '../helpers.js';
import { type Case, check, many, modelOf, type ThreadSpec } from './build.js';

const DIR = join(INCIDENTS, 'logging-contention');
const truth = truthOf('logging-contention') as {
  facts: {
    syncAppender: string;
    syncThreads: number;
    syncPrefix: string;
    asyncAppender: string;
    asyncThreads: number;
    asyncQueueCapacity: number;
    asyncAppenderName: string;
    asyncPrefix: string;
    control: string;
  };
};
type Found = { id: string; rule: string; subject: string; severity: string; message: string; facts: Record<string, unknown>; causedBy: string[] };
const logFindings = (findings: readonly { rule: string }[]) => findings.filter((f) => f.rule === 'logging-contention') as Found[];

describe('logging-contention', { timeout: 60_000 }, () => {
  test("the appender lock's waiters and its holder's socket write; the full async queue's producers and its worker", async () => {
    const { findings, model } = await analyseIncident(DIR);
    const found = logFindings(findings);
    const sync = found.find((f) => f.facts['appenderFrame'] === truth.facts.syncAppender)!;
    // One of the request threads holds the lock; the others wait for it.
    expect(sync.facts['waiterCount']).toBe(truth.facts.syncThreads - 1);
    expect((sync.facts['waiters'] as string[]).every((w) => w.startsWith(truth.facts.syncPrefix))).toBe(true);
    expect(sync.facts['holders']).toEqual([expect.stringMatching(new RegExp(`^${truth.facts.syncPrefix}`))]);
    expect(sync.facts['holderDoing']).toEqual([expect.stringMatching(/^writing to a socket/)]);
    expect(sync.causedBy).toEqual([expect.stringMatching(/^lock-contention:/)]);
    const queue = found.find((f) => f.facts['appenderFrame'] === `${truth.facts.asyncAppender}.put`)!;
    expect(queue.facts['asyncQueueFull']).toBe(true);
    expect(queue.facts['waiterCount']).toBe(truth.facts.asyncThreads);
    expect(queue.facts['holderDoing']).toEqual([expect.stringMatching(/^writing to a socket/)]);
    // Both are held up by the writers stuck in one socket write in every dump: the lock's owner (through the
    // lock-contention finding) and the queue's worker (directly); that stuck-threads finding is the one root.
    const stuckWriters = findings.find((f) => f.rule === 'stuck-threads' && f.facts['state'] === 'RUNNABLE')!;
    expect(stuckWriters.facts['threads']).toEqual(expect.arrayContaining([...(sync.facts['holders'] as string[]), ...(queue.facts['holders'] as string[])]));
    expect(queue.causedBy).toEqual([stuckWriters.id]);
    expect(findings.find((f) => f.id === sync.causedBy[0])!.causedBy).toEqual([stuckWriters.id]);
    expect(stuckWriters.causedBy).toEqual([]);
    // The heap dump taken with the thread dumps says how full the queue is: full.
    expect(queue.facts['queues']).toEqual([`${truth.facts.asyncAppenderName}: ${truth.facts.asyncQueueCapacity}/${truth.facts.asyncQueueCapacity}`]);
    expect(found).toHaveLength(2);
    expect(JSON.stringify(found)).not.toContain(`"${truth.facts.control}`);
    // The producers on the full queue are held (working), not consumers waiting for work.
    const last = model.dumps.length - 1;
    const producer = model.dumps[last]!.threads.findIndex((t) => t.name.startsWith(truth.facts.asyncPrefix));
    expect(model.activity[last]![producer]).toMatchObject({ activity: 'working', reason: expect.stringMatching(/room in a full ArrayBlockingQueue/) });
  });

  test("from the thread dumps alone: the same two findings, without the queue's fill", async () => {
    const found = logFindings((await analyseIncident(DIR, { threadsOnly: true })).findings);
    expect(found).toHaveLength(2);
    expect(found.find((f) => f.facts['asyncQueueFull'] === true)!.facts['queues']).toEqual([]);
  });
});

const LOCK = { id: '0x30', className: 'java.util.concurrent.locks.ReentrantLock$NonfairSync' };
const APPENDER = [
  'ch.qos.logback.core.OutputStreamAppender.subAppend',
  'ch.qos.logback.core.OutputStreamAppender.append',
  'ch.qos.logback.core.UnsynchronizedAppenderBase.doAppend',
  'ch.qos.logback.classic.Logger.info',
];
const waiting = (): Omit<ThreadSpec, 'name'> => ({
  state: 'WAITING',
  detail: 'parking',
  frames: [
    'jdk.internal.misc.Unsafe.park(Native Method)',
    'java.util.concurrent.locks.LockSupport.park',
    'java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire',
    'java.util.concurrent.locks.ReentrantLock.lock',
    ...APPENDER,
    'com.acme.Api.handle',
  ],
  locks: [{ at: 0, kind: 'parking', ...LOCK }],
});
const writer: ThreadSpec = {
  name: 'log-writer',
  state: 'RUNNABLE',
  frames: [
    'sun.nio.ch.SocketDispatcher.write0(Native Method)',
    'sun.nio.ch.NioSocketImpl.write',
    'java.net.Socket$SocketOutputStream.write',
    'ch.qos.logback.core.OutputStreamAppender.writeBytes',
    ...APPENDER,
    'com.acme.Batch.run',
  ],
  owns: [LOCK],
};
const SUBJECT = 'logback ch.qos.logback.core.OutputStreamAppender';

const HAND_BUILT: Case[] = [
  {
    name: "three threads wait for an appender's lock held by a thread writing to a socket",
    model: () => modelOf([{ threads: [writer, ...many(3, 'http-nio-8080-exec-', waiting)] }]),
    expect: [
      {
        subject: SUBJECT,
        severity: 'warning',
        facts: { waiterCount: 3, holders: ['log-writer'], holderDoing: [expect.stringMatching(/^writing to a socket/)], loggedFrom: ['com.acme.Api.handle'] },
        causedBy: [],
      },
    ],
  },
  {
    name: 'with five waiters the lock is contended too, and that finding is the cause',
    model: () => modelOf([{ threads: [writer, ...many(5, 'http-nio-8080-exec-', waiting)] }]),
    expect: [{ subject: SUBJECT, causedBy: ['lock-contention:java.util.concurrent.locks.ReentrantLock$NonfairSync@0x30'] }],
  },
  {
    name: 'ten waiters make it an error',
    model: () => modelOf([{ threads: [writer, ...many(10, 'http-nio-8080-exec-', waiting)] }]),
    expect: [{ subject: SUBJECT, severity: 'error' }],
  },
  {
    name: 'negative control: two waiters are below minThreads',
    model: () => modelOf([{ threads: [writer, ...many(2, 'http-nio-8080-exec-', waiting)] }]),
    expect: [],
  },
];

describe('logging-contention: hand-built cases', () => {
  for (const c of HAND_BUILT) test(c.name, () => void check('logging-contention', c));
});

/**
 * The wait belongs to the logger API the thread called, read from the wait towards its start, not to
 * the frame it waits in (fixtures/generate-single-dump-evidence.sh: Log4j 2.19's Logger.info into the
 * company's own appender, whose manager, a subclass of OutputStreamManager in the company's package,
 * is held by a thread in a socket write; threads BLOCKED in AuditLog.log and PaymentLogger.info, the
 * application's own, are the controls).
 */
const LOGGER_WAITS = join('fixtures', 'threads', 'logger-waits');
const loggerTruth = JSON.parse(readFileSync(join(LOGGER_WAITS, 'truth.json'), 'utf8')) as {
  facts: {
    requests: number;
    requestPrefix: string;
    manager: string;
    loggerCall: string;
    controls: number;
    auditPrefix: string;
    auditLock: string;
    refundPrefix: string;
    refundLock: string;
  };
};

describe('logging-contention: by the logger API the thread called', { timeout: 60_000 }, () => {
  test("request threads BLOCKED inside Logger.info on a vendor's manager subclass are the logging problem, with its remedy first", async () => {
    const t = loggerTruth.facts;
    const { findings } = await analyseFiles([join(LOGGER_WAITS, 'dump.txt')]);
    const found = logFindings(findings);
    expect(found).toHaveLength(1);
    const f = found[0]!;
    // The manager's class is no row's; its waiters are known by the call beneath them.
    expect(f.subject).toBe(`log4j 2 ${t.manager}`);
    expect(f.severity).toBe('error');
    expect(f.facts['waiterCount']).toBe(t.requests - 1);
    expect((f.facts['waiters'] as string[]).every((w) => w.startsWith(t.requestPrefix))).toBe(true);
    expect(f.facts['loggerCall']).toBe(t.loggerCall);
    expect(f.facts['appenderFrame']).toMatch(new RegExp(`^${t.manager.replace(/\./g, '\\.')}\\.`));
    expect(f.facts['holderDoing']).toEqual([expect.stringMatching(/^writing to a socket/)]);
    expect(f.message).toContain(t.manager);
    // The lock is contended too; that finding is the cause, and the summary's first step is logging's remedy.
    const lock = findings.find((x) => x.rule === 'lock-contention' && x.facts['lockClass'] === t.manager)!;
    expect(f.causedBy).toEqual([lock.id]);
    expect(causalSummary(findings).first?.finding.id).toBe(f.id);
    // The controls: contention on the application's own locks named like logging stays lock contention.
    expect(JSON.stringify(found)).not.toMatch(new RegExp(`${t.auditPrefix}|${t.refundPrefix}`));
    for (const cls of [t.auditLock, t.refundLock])
      expect(findings.find((x) => x.rule === 'lock-contention' && x.facts['lockClass'] === cls)?.facts['waiters']).toBe(t.controls);
  });
});

const SLF4J_JUL = join('fixtures', 'threads', 'logger-waits-slf4j-jul');
const slf4jTruth = JSON.parse(readFileSync(join(SLF4J_JUL, 'truth.json'), 'utf8')) as {
  facts: { requests: number; requestPrefix: string; handler: string; loggerCall: string };
};

describe('logging-contention: SLF4J over java.util.logging, a handler of the application', { timeout: 60_000 }, () => {
  test("request threads BLOCKED in the company's JUL Handler beneath SLF4J's Logger.info are the logging problem", async () => {
    const t = slf4jTruth.facts;
    const { findings } = await analyseFiles([join(SLF4J_JUL, 'dump.txt')]);
    const found = logFindings(findings);
    expect(found.map((f) => [f.subject, f.facts['waiterCount'], f.facts['loggerCall']])).toEqual([
      [`java.util.logging ${t.handler}`, t.requests - 1, t.loggerCall],
    ]);
    expect((found[0]!.facts['waiters'] as string[]).every((w) => w.startsWith(t.requestPrefix))).toBe(true);
    expect(found[0]!.facts['holderDoing']).toEqual([expect.stringMatching(/^writing to a socket/)]);
    // Logged from the service's code, beneath SLF4J's adapter (not the adapter itself).
    expect(found[0]!.facts['loggedFrom']).toEqual([expect.stringMatching(/^com\.example\.shipping\.Slf4jJulWaits\$Dispatch\.dispatch$/)]);
    expect(causalSummary(findings).first?.finding.id).toBe(found[0]!.id);
  });
});

/** A thread BLOCKED on `lock` in `top`, called through `beneath` (top first) from a request handler. */
const blockedIn = (lockClass: string, top: string, beneath: readonly string[], id = '0x50'): Omit<ThreadSpec, 'name'> => ({
  state: 'BLOCKED',
  detail: 'on object monitor',
  frames: [top, ...beneath, 'com.acme.web.OrderController.place', 'java.lang.Thread.run'],
  locks: [{ at: 0, kind: 'waiting-to-lock', id, className: lockClass }],
});
const holderIn = (lockClass: string, top: string, beneath: readonly string[]): ThreadSpec => ({
  name: 'holder',
  state: 'RUNNABLE',
  frames: [
    'sun.nio.ch.SocketDispatcher.write0(Native Method)',
    'sun.nio.ch.NioSocketImpl.write',
    'java.net.Socket$SocketOutputStream.write',
    top,
    ...beneath,
    'com.acme.web.OrderController.place',
    'java.lang.Thread.run',
  ],
  locks: [{ at: 3, kind: 'locked', id: '0x50', className: lockClass }],
});
/** Three threads BLOCKED in `top` (under `beneath`) on one monitor, its holder writing to a socket there. */
const blockedThree = (lockClass: string, top: string, beneath: readonly string[]) =>
  modelOf([{ threads: [holderIn(lockClass, top, beneath), ...many(3, 'http-nio-8080-exec-', () => blockedIn(lockClass, top, beneath))] }]);

const BY_API: Case[] = [
  {
    name: 'logback: a vendor appender beneath ch.qos.logback.classic.Logger.info (no appender row above the wait)',
    model: () =>
      blockedThree('com.vendor.logs.GelfSender', 'com.vendor.logs.GelfSender.send', [
        'com.vendor.logs.GelfAppender.append',
        'ch.qos.logback.core.UnsynchronizedAppenderBase.doAppend',
        'ch.qos.logback.core.spi.AppenderAttachableImpl.appendLoopOnAppenders',
        'ch.qos.logback.classic.Logger.callAppenders',
        'ch.qos.logback.classic.Logger.buildLoggingEventAndAppend',
        'ch.qos.logback.classic.Logger.filterAndLog_1',
        'ch.qos.logback.classic.Logger.info',
      ]),
    expect: [
      {
        subject: 'logback com.vendor.logs.GelfSender',
        facts: {
          waiterCount: 3,
          loggerCall: 'ch.qos.logback.classic.Logger.info',
          appenderFrame: 'com.vendor.logs.GelfSender.send',
          loggedFrom: ['com.acme.web.OrderController.place'],
        },
      },
    ],
  },
  {
    name: 'slf4j into log4j 1: a subclass of an appender in another package, beneath org.slf4j.impl.Log4jLoggerAdapter.info',
    model: () =>
      blockedThree('com.vendor.syslog.TcpSyslogAppender', 'com.vendor.syslog.TcpSyslogAppender.append', [
        'org.apache.log4j.helpers.AppenderAttachableImpl.appendLoopOnAppenders',
        'org.apache.log4j.Category.callAppenders',
        'org.apache.log4j.Category.forcedLog',
        'org.apache.log4j.Category.log',
        'org.slf4j.impl.Log4jLoggerAdapter.info',
      ]),
    // The first logger frame from the wait is Category.log: log4j 1's.
    expect: [{ subject: 'log4j 1 com.vendor.syslog.TcpSyslogAppender', facts: { loggerCall: 'org.apache.log4j.Category.log' } }],
  },
  {
    name: "java.util.logging: a handler of the application's own (its publish is synchronized) beneath Logger.info",
    model: () =>
      blockedThree('com.acme.logs.RemoteHandler', 'com.acme.logs.RemoteHandler.publish', [
        'java.util.logging.Logger.log',
        'java.util.logging.Logger.doLog',
        'java.util.logging.Logger.info',
      ]),
    expect: [{ subject: 'java.util.logging com.acme.logs.RemoteHandler', facts: { loggerCall: 'java.util.logging.Logger.log' } }],
  },
  {
    name: 'commons-logging and JBoss Logging are logger APIs too',
    model: () =>
      modelOf([
        {
          threads: [
            ...many(3, 'jcl-', () =>
              blockedIn('com.vendor.A', 'com.vendor.A.write', ['com.vendor.A.append', 'org.apache.commons.logging.impl.Jdk14Logger.info']),
            ),
            ...many(3, 'jboss-', () =>
              blockedIn('com.vendor.B', 'com.vendor.B.write', ['com.vendor.B.append', 'org.jboss.logging.DelegatingBasicLogger.info'], '0x60'),
            ),
          ],
        },
      ]),
    expect: [{ subject: 'JBoss Logging com.vendor.B' }, { subject: 'commons-logging com.vendor.A' }],
  },
  {
    name: "negative control: a method of the application's named log, and a class named like a logger",
    model: () =>
      modelOf([
        {
          threads: [
            ...many(3, 'audit-', () => blockedIn('com.acme.AuditLog', 'com.acme.AuditLog.log', [])),
            ...many(3, 'refund-', () => blockedIn('com.acme.PaymentLogger', 'com.acme.PaymentLogger.info', ['com.acme.RefundLog.logRefund'], '0x60')),
          ],
        },
      ]),
    expect: [],
  },
  {
    name: "negative control: a connection pool between the wait and the logger call (a JDBC appender) is the pool's wait",
    model: () =>
      modelOf([
        {
          threads: many(3, 'http-nio-8080-exec-', () => ({
            state: 'TIMED_WAITING' as const,
            detail: 'parking',
            frames: [
              'jdk.internal.misc.Unsafe.park(Native Method)',
              'java.util.concurrent.locks.LockSupport.parkNanos',
              'java.util.concurrent.SynchronousQueue.poll',
              'com.zaxxer.hikari.util.ConcurrentBag.borrow',
              'com.zaxxer.hikari.pool.HikariPool.getConnection',
              'com.vendor.logs.JdbcAppender.append',
              'ch.qos.logback.classic.Logger.info',
              'com.acme.web.OrderController.place',
              'java.lang.Thread.run',
            ],
          })),
        },
      ]),
    expect: [],
  },
  {
    name: 'negative control: a logger call that returned; the wait is in the code after it',
    model: () =>
      modelOf([{ threads: many(3, 'http-nio-8080-exec-', () => blockedIn('com.acme.Cart', 'com.acme.Cart.add', ['com.acme.web.CartController.post'])) }]),
    expect: [],
  },
];

describe('logging-contention: by the logger API the thread called, hand-built', () => {
  for (const c of BY_API) test(c.name, () => void check('logging-contention', c));
});
