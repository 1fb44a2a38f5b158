/**
 * queue-backlog: hand-built heap executors (a large backlog; a bounded queue nearly full: error; a
 * backlog behind a starved connection pool, named as the cause; and the controls: a short queue,
 * an empty one). The real JVMs' backlogs are checked in test/incidents/http-pools.test.ts and
 * test/rules/memory-meets-concurrency.test.ts.
 */
import { describe, expect, test } from 'vitest';

import type { Model } from '../../src/model/model.js';
import { type Case, check, connectionPool, executorHeap, inPoolWorker, many, modelOf, refs } from './build.js';

const busy = (n: number) =>
  many(n, 'render-pool-thread-', () => ({
    state: 'TIMED_WAITING',
    detail: 'sleeping',
    frames: inPoolWorker('java.lang.Thread.sleep', 'com.acme.Renderer.render'),
  }));

/** Four busy workers whose executor the heap shows with `size` of `capacity` queued, in one dump or a timed series. */
const queued = (size: number, capacity: number | null, more: (m: Model) => Partial<Model> = () => ({}), at: readonly string[] = []) =>
  modelOf(at.length === 0 ? [{ threads: busy(4) }] : at.map((t) => ({ threads: busy(4), at: t })), (m) => ({
    executors: m.executors.map((e) => ({ ...e, heap: executorHeap({ maximumPoolSize: 4, poolSize: 4, activeWorkers: 4, queue: { size, capacity } }) })),
    ...more(m),
  }));

/** A connection pool three of the workers wait for in the first dump. */
const starvedBy = (m: Model) =>
  connectionPool({
    kind: 'hikaricp',
    name: 'HikariCP reports',
    waitingThreads: [{ dump: 0, threads: refs(m, ['render-pool-thread-1', 'render-pool-thread-2', 'render-pool-thread-3']) }],
  });

const CASES: Case[] = [
  {
    name: '5,000 tasks in an unbounded queue behind four busy workers',
    model: () => queued(5000, null),
    expect: [
      {
        subject: 'render-pool',
        severity: 'warning',
        facts: { queueSize: 5000, queueCapacity: null, busyWorkers: 4, drainSeconds: null },
        message: /5000 tasks wait in the queue of "render-pool" \(LinkedBlockingQueue, unbounded\) behind 4 busy of 4 workers/,
      },
    ],
  },
  {
    name: 'a bounded queue at 90% of its capacity is an error, however short',
    model: () => queued(95, 100),
    expect: [{ subject: 'render-pool', severity: 'error', facts: { queueSize: 95, queueCapacity: 100 } }],
  },
  {
    name: 'workers waiting on a starved connection pool: that pool is the cause',
    model: () =>
      queued(2000, null, (m) => ({
        connectionPools: [
          connectionPool({
            kind: 'hikaricp',
            name: 'HikariCP reports',
            waitingThreads: [{ dump: 0, threads: refs(m, ['render-pool-thread-1', 'render-pool-thread-2', 'render-pool-thread-3']) }],
          }),
        ],
      })),
    expect: [{ subject: 'render-pool', causedBy: ['connection-pool-starvation:HikariCP reports'], message: /Its workers wait on HikariCP reports/ }],
  },
  {
    name: 'one dump behind a starved pool: the drain rate is unknown for want of a series',
    model: () => queued(2000, null, (m) => ({ connectionPools: [starvedBy(m)] })),
    expect: [{ subject: 'render-pool', facts: { drainSeconds: null, drainBasis: 'no series of thread dumps with timestamps: throughput unknown' } }],
  },
  {
    // Issue 46: the workers wait for the pool's calls (parked on futures, as behind a saturated OkHttp
    // dispatcher) in three timestamped dumps; the rate is unknown because no worker was seen in a call.
    name: 'a timed series whose workers only wait for the pool: the drain rate is unknown, and the series is not denied',
    model: () => queued(2000, null, (m) => ({ connectionPools: [starvedBy(m)] }), ['2026-11-30T10:41:15', '2026-11-30T10:41:17', '2026-11-30T10:41:20']),
    expect: [
      {
        subject: 'render-pool',
        facts: { drainSeconds: null, drainBasis: expect.stringMatching(/^none of its workers was inside a call in the 3 thread dumps with timestamps/) },
      },
    ],
  },
  { name: 'negative control: 50 queued is below minBacklog', model: () => queued(50, null), expect: [] },
  { name: 'the threshold is an option', model: () => queued(50, null), options: { minBacklog: 10 }, expect: [{ subject: 'render-pool' }] },
  { name: 'negative control: an empty queue', model: () => queued(0, 100), expect: [] },
];

describe('queue-backlog: hand-built cases', () => {
  for (const c of CASES) test(c.name, () => void check('queue-backlog', c));
});
