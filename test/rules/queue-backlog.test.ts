/**
 * queue-backlog: hand-built heap executors (a large backlog; a bounded queue nearly full: error; a
 * backlog behind a starved connection pool, named as the cause; and the controls: a short queue,
 * an empty one). The real JVMs' backlogs are checked in test/incidents/http-pools.test.ts and
 * test/rules/memory-meets-concurrency.test.ts.
 */
import { describe, test } from 'vitest';

import type { Model } from '../../src/model/model.js';
import { type Case, check, connectionPool, executorHeap, inPoolWorker, many, modelOf, refs } from './build.js';

const busy = (n: number) =>
  many(n, 'render-pool-thread-', () => ({
    state: 'TIMED_WAITING',
    detail: 'sleeping',
    frames: inPoolWorker('java.lang.Thread.sleep', 'com.acme.Renderer.render'),
  }));

/** Four busy workers whose executor the heap shows with `size` of `capacity` queued. */
const queued = (size: number, capacity: number | null, more: (m: Model) => Partial<Model> = () => ({})) =>
  modelOf([{ threads: busy(4) }], (m) => ({
    executors: m.executors.map((e) => ({ ...e, heap: executorHeap({ maximumPoolSize: 4, poolSize: 4, activeWorkers: 4, queue: { size, capacity } }) })),
    ...more(m),
  }));

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
  { name: 'negative control: 50 queued is below minBacklog', model: () => queued(50, null), expect: [] },
  { name: 'the threshold is an option', model: () => queued(50, null), options: { minBacklog: 10 }, expect: [{ subject: 'render-pool' }] },
  { name: 'negative control: an empty queue', model: () => queued(0, 100), expect: [] },
];

describe('queue-backlog: hand-built cases', () => {
  for (const c of CASES) test(c.name, () => void check('queue-backlog', c));
});
