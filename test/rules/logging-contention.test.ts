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

import { analyseIncident, INCIDENTS } from '../helpers.js';
import { type Case, check, many, modelOf, type ThreadSpec } from './build.js';

const DIR = join(INCIDENTS, 'logging-contention');
const truth = JSON.parse(readFileSync(join(DIR, 'truth.json'), 'utf8')) as {
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
type Found = { rule: string; subject: string; severity: string; message: string; facts: Record<string, unknown>; causedBy: string[] };
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
