/**
 * executor-saturated: hand-built pools (every worker busy; busy behind a contended lock or a starved
 * connection pool, named as the cause; and the controls: a worker idle, a heap executor that may
 * still grow, a bounded queue with room), then the real JVMs' pools.
 */
import { join } from 'node:path';

import { describe, expect, test } from 'vitest';

import { resolveConfig } from '../../src/engine/config.js';
import { runRules } from '../../src/engine/run-rules.js';
import { RULES } from '../../src/rules/index.js';
import { analyse, analyseIncident, byRule, FIXTURES, INCIDENTS, truthOf } from '../helpers.js';
import { type Case, check, connectionPool, executorHeap, idlePoolWorker, inPoolWorker, many, modelOf, refs, type ThreadSpec } from './build.js';

const sleeping = (): Omit<ThreadSpec, 'name'> => ({
  state: 'TIMED_WAITING',
  detail: 'sleeping',
  frames: inPoolWorker('java.lang.Thread.sleep', 'com.acme.OrderService.place'),
});
const onLock = (): Omit<ThreadSpec, 'name'> => ({
  state: 'BLOCKED',
  detail: 'on object monitor',
  frames: inPoolWorker('com.acme.Inventory.reserve', 'com.acme.OrderService.place'),
  locks: [{ at: 0, kind: 'waiting-to-lock', id: '0x10', className: 'com.acme.Inventory' }],
});
const inventoryOwner: ThreadSpec = {
  name: 'stock-sync',
  state: 'TIMED_WAITING',
  detail: 'sleeping',
  frames: ['java.lang.Thread.sleep', 'com.acme.Inventory.sync'],
  locks: [{ at: 1, kind: 'locked', id: '0x10', className: 'com.acme.Inventory' }],
};

const CASES: Case[] = [
  {
    name: 'all four workers of a pool busy in one task',
    model: () => modelOf([{ threads: many(4, 'order-pool-thread-', sleeping) }]),
    expect: [
      {
        subject: 'order-pool',
        severity: 'warning',
        facts: { workers: 4, busy: 4, idle: 0, topActivityThreads: 4 },
        message: new RegExp(
          /All 4 workers of pool "order-pool" \("order-pool-thread-1", "order-pool-thread-2", "order-pool-thread-3", ...\) are busy; /.source +
            /4 of them in com.acme.OrderService.place/.source,
        ),
        causedBy: [],
      },
    ],
  },
  {
    name: '"pool exhausted" lines are unknown with no log given, and 0 from a log that has none',
    model: () => modelOf([{ threads: many(4, 'order-pool-thread-', sleeping) }]),
    expect: [{ subject: 'order-pool', facts: { exhaustedLogLines: null } }],
  },
  {
    name: 'the same with a log read beside the dump',
    model: () =>
      modelOf([{ threads: many(4, 'order-pool-thread-', sleeping) }], (m) => ({
        inputs: [
          ...m.inputs,
          { path: 'app.log', kind: 'log', format: 'log', gzip: false, encoding: 'utf8', dumps: 0, threads: 0, unparsedLines: 0, outsideLines: 0, warnings: [] },
        ],
      })),
    expect: [{ subject: 'order-pool', facts: { exhaustedLogLines: 0 } }],
  },
  {
    name: 'negative control: one worker of four idle',
    model: () => modelOf([{ threads: [...many(3, 'order-pool-thread-', sleeping), { name: 'order-pool-thread-4', ...idlePoolWorker }] }]),
    expect: [],
  },
  {
    name: 'negative control: a single-thread executor is below minWorkers',
    model: () => modelOf([{ threads: many(1, 'order-pool-thread-', sleeping) }]),
    expect: [],
  },
  {
    name: 'workers queued on one contended lock name it as the cause',
    model: () => modelOf([{ threads: [inventoryOwner, ...many(5, 'order-pool-thread-', onLock)] }]),
    expect: [{ subject: 'order-pool', causedBy: ['lock-contention:com.acme.Inventory@0x10'] }],
  },
  {
    name: 'workers waiting for a starved connection pool name it as the cause',
    model: () =>
      modelOf([{ threads: many(4, 'order-pool-thread-', sleeping) }], (m) => ({
        connectionPools: [
          connectionPool({
            kind: 'hikaricp',
            name: 'HikariCP orders',
            waitingThreads: [{ dump: 0, threads: refs(m, ['order-pool-thread-1', 'order-pool-thread-2', 'order-pool-thread-3']) }],
          }),
        ],
      })),
    expect: [{ subject: 'order-pool', causedBy: ['connection-pool-starvation:HikariCP orders'] }],
  },
  {
    name: 'negative control: the heap says the pool may still start workers',
    model: () =>
      modelOf([{ threads: many(4, 'order-pool-thread-', sleeping) }], (m) => ({
        executors: m.executors.map((e) => ({
          ...e,
          heap: executorHeap({ maximumPoolSize: 8, poolSize: 4, activeWorkers: 4, queue: { size: 0, capacity: null } }),
        })),
      })),
    expect: [],
  },
  {
    name: 'negative control: at its maximum, but its bounded queue has room and nothing holds the workers',
    model: () =>
      modelOf([{ threads: many(4, 'order-pool-thread-', sleeping) }], (m) => ({
        executors: m.executors.map((e) => ({
          ...e,
          heap: executorHeap({ maximumPoolSize: 4, poolSize: 4, activeWorkers: 4, queue: { size: 10, capacity: 100 } }),
        })),
      })),
    expect: [],
  },
];

describe('executor-saturated: hand-built cases', () => {
  for (const c of CASES) test(c.name, () => void check('executor-saturated', c));
});

describe('executor-saturated on real JVMs', () => {
  test('the saturated pool is found, the half-busy one is not', async () => {
    const { findings } = await analyse([`${FIXTURES}/pool/dump-1.txt`]);
    const sat = byRule(findings, 'executor-saturated');
    expect(sat.map((f) => f.subject)).toEqual(['biz-pool']);
    expect(sat[0]!.facts).toMatchObject({ workers: 4, busy: 4, idle: 0 });
  });
  test('busy workers queued on one lock name that contention as the cause; workers busy elsewhere name none', async () => {
    const { model } = await analyse([`${FIXTURES}/contention/dump-1.txt`]);
    // The waiters are numbered threads (`monitor-waiter-N`), judged only with this option.
    const config = resolveConfig(RULES, { rules: { 'executor-saturated': ['warning', { minWorkersOtherNames: 2 }] } }, 'test');
    const findings = runRules(model, RULES, config);
    const contentionOn = (cls: string) => byRule(findings, 'lock-contention').find((f) => f.subject.startsWith(`${cls}@`))!.id;
    const sat = new Map(byRule(findings, 'executor-saturated').map((f) => [f.subject, f.causedBy]));
    expect([...sat.keys()].sort()).toEqual(['monitor-waiter', 'rlock-waiter']);
    expect(sat.get('monitor-waiter')).toEqual([contentionOn('SharedCache')]);
    expect(sat.get('rlock-waiter')).toEqual([contentionOn('java.util.concurrent.locks.ReentrantLock$NonfairSync')]);
    const pool = byRule((await analyse([`${FIXTURES}/pool/dump-1.txt`])).findings, 'executor-saturated');
    expect(pool[0]!.causedBy).toEqual([]);
  });
  test('deadlocked threads with numbered names are not a pool', async () => {
    const { findings } = await analyse([`${FIXTURES}/deadlock/dump-1.txt`]);
    expect(byRule(findings, 'executor-saturated')).toEqual([]);
  });
});

describe('executor-saturated on real servers whose clients do not read (fixtures/generate-pool-incidents.sh)', { timeout: 60_000 }, () => {
  type Truth = { facts: { pool: string; maxThreads: number; poolSize: number; blockedWriting: number } };
  // Tomcat 9 on JDK 17 (its blocking write waits on a monitor), and a plain ServerSocket with a fixed pool on JDK 25 (RUNNABLE in the socket write).
  for (const [incident, where] of [
    ['slow-clients-write', 'org.apache.tomcat.util.net.NioEndpoint$NioSocketWrapper.doWrite'],
    ['socket-server-write-jdk25', 'com.example.media.SocketServerWrites.serve'],
  ] as const) {
    test(`${incident}: 198 of 200 workers blocked writing responses, the pool at its maximum, nearly all held by one wait`, async () => {
      const truth = truthOf<Truth>(incident).facts;
      const { findings } = await analyseIncident(join(INCIDENTS, incident));
      const sat = byRule(findings, 'executor-saturated');
      expect(sat.map((f) => f.subject)).toEqual([truth.pool]);
      expect(sat[0]!.facts).toMatchObject({ workers: truth.poolSize, busy: truth.blockedWriting, heldByOneWait: truth.blockedWriting, oneWait: where });
      expect(truth.poolSize).toBe(truth.maxThreads);
    });
  }
  test('negative control: the same server with its 200 workers idle', async () => {
    const truth = truthOf<Truth>('idle-server-pool').facts;
    const { model, findings } = await analyseIncident(join(INCIDENTS, 'idle-server-pool'));
    expect(model.executors.find((e) => e.name === truth.pool)?.workers).toBe(truth.poolSize);
    expect(byRule(findings, 'executor-saturated')).toEqual([]);
  });
});

/** A ForkJoinPool worker running `task` (top first). */
const inForkJoinWorker = (...task: string[]): string[] => [
  ...task,
  'java.util.concurrent.RecursiveTask.exec',
  'java.util.concurrent.ForkJoinTask.doExec',
  'java.util.concurrent.ForkJoinPool$WorkQueue.topLevelExec',
  'java.util.concurrent.ForkJoinPool.scan',
  'java.util.concurrent.ForkJoinPool.runWorker',
  'java.util.concurrent.ForkJoinWorkerThread.run',
];
const computing = (): Omit<ThreadSpec, 'name'> => ({ state: 'RUNNABLE', frames: inForkJoinWorker('com.acme.Report.sum', 'com.acme.Report.compute') });
const futureCaller = (): Omit<ThreadSpec, 'name'> => ({
  state: 'WAITING',
  detail: 'parking',
  frames: [
    'jdk.internal.misc.Unsafe.park(Native Method)',
    'java.util.concurrent.locks.LockSupport.park',
    'java.util.concurrent.FutureTask.awaitDone',
    'java.util.concurrent.FutureTask.get',
    'com.acme.Web.handle',
    'java.lang.Thread.run',
  ],
});
const keepAlive = (): Omit<ThreadSpec, 'name'> => ({
  state: 'RUNNABLE',
  frames: [
    'java.net.SocketInputStream.socketRead0(Native Method)',
    'java.net.SocketInputStream.read',
    'org.apache.coyote.ajp.AjpProcessor.read',
    'org.apache.coyote.ajp.AjpProcessor.readMessage',
    'org.apache.coyote.ajp.AjpProcessor.process',
    'org.apache.tomcat.util.net.JIoEndpoint$SocketProcessor.run',
    ...inPoolWorker().slice(0),
  ],
});

const COMPUTE_CASES: Case[] = [
  {
    name: 'negative control: a ForkJoin pool whose every worker computes is doing its job',
    model: () => modelOf([{ threads: [...many(2, 'ForkJoinPool-1-worker-', computing), { name: 'report-scheduler', ...futureCaller() }] }]),
    expect: [],
  },
  {
    // A thread dump does not say which pool runs the task a future waits for: the callers count against none.
    name: 'negative control: a computing ForkJoin pool and more callers waiting for futures (another pool runs) than it has workers',
    model: () => modelOf([{ threads: [...many(2, 'ForkJoinPool-1-worker-', computing), ...many(3, 'web-', futureCaller)] }]),
    expect: [],
  },
  {
    name: 'negative control: a computing ForkJoin pool whose workers also have subtasks queued (its normal work)',
    model: () =>
      modelOf([{ threads: many(2, 'ForkJoinPool-1-worker-', computing) }], (m) => ({
        executors: m.executors.map((e) => ({
          ...e,
          heap: executorHeap({ maximumPoolSize: 2, poolSize: 2, activeWorkers: 2, queue: { size: 40, capacity: null } }),
        })),
      })),
    expect: [],
  },
  {
    name: 'a ThreadPoolExecutor whose every worker computes is saturated (it was sized for concurrency, not for the cores)',
    model: () =>
      modelOf([{ threads: many(4, 'pool-4-thread-', () => ({ state: 'RUNNABLE', frames: inPoolWorker('java.lang.Math.random', 'com.acme.Batch.run') })) }]),
    expect: [{ subject: 'pool-4' }],
  },
  {
    name: 'workers waiting for the next request on a connection they hold are not free: busy with the rest, the pool is saturated',
    model: () => modelOf([{ threads: [...many(3, 'ajp-exec-', sleeping), { name: 'ajp-exec-4', ...keepAlive() }] }]),
    expect: [{ subject: 'ajp-exec', message: /3 of the 4 workers of pool "ajp-exec".*1 more worker waits for the next request on a connection it holds/ }],
  },
  {
    name: 'negative control: a quiet blocking connector, every worker in a keep-alive read',
    model: () => modelOf([{ threads: many(4, 'ajp-exec-', keepAlive) }]),
    expect: [],
  },
];

/** A request worker blocked writing its response to a client that does not read (JDK 8's socket write, RUNNABLE). */
const writingResponse = (): Omit<ThreadSpec, 'name'> => ({
  state: 'RUNNABLE',
  frames: [
    'java.net.SocketOutputStream.socketWrite0(Native Method)',
    'java.net.SocketOutputStream.socketWrite',
    'java.net.SocketOutputStream.write',
    'org.apache.coyote.http11.InternalOutputBuffer.realWriteBytes',
    'com.acme.web.DownloadServlet.doGet',
    'javax.servlet.http.HttpServlet.service',
    'org.apache.tomcat.util.net.JIoEndpoint$SocketProcessor.run',
    ...inPoolWorker(),
  ],
});
const reportWriter = (): Omit<ThreadSpec, 'name'> => ({
  ...writingResponse(),
  frames: writingResponse().frames!.map((f) => (f === 'com.acme.web.DownloadServlet.doGet' ? 'com.acme.web.ReportServlet.doGet' : f)),
});
const crunching = (): Omit<ThreadSpec, 'name'> => ({
  state: 'RUNNABLE',
  frames: inPoolWorker('com.acme.web.Thumbnails.scale', 'com.acme.web.ImageServlet.doGet'),
});
const workers = (busy: number, total: number, make: () => Omit<ThreadSpec, 'name'>): ThreadSpec[] => [
  ...many(busy, 'http-exec-', make),
  ...many(total - busy, 'http-exec-', () => idlePoolWorker).map((t, i) => ({ ...t, name: `http-exec-${busy + i + 1}` })),
];

const NEARLY_ALL_CASES: Case[] = [
  {
    name: 'a server pool with 19 of 20 workers blocked writing responses (from two servlets) is saturated: nearly all held by one wait',
    model: () => modelOf([{ threads: [...many(12, 'http-exec-', writingResponse), ...workers(19, 20, reportWriter).slice(12)] }]),
    expect: [
      {
        subject: 'http-exec',
        severity: 'warning',
        facts: { workers: 20, busy: 19, idle: 1, heldByOneWait: 19, oneWait: 'org.apache.coyote.http11.InternalOutputBuffer.realWriteBytes' },
        message: new RegExp(
          /19 of the 20 workers of pool "http-exec" .* are busy; 19 of them wait in org.apache.coyote.http11.InternalOutputBuffer.realWriteBytes\. /.source +
            /.*Nearly every worker is held by that one wait \(1 free\)/.source,
        ),
      },
    ],
  },
  {
    name: "the same on JDK 17's socket (RUNNABLE in Net.poll under NioSocketImpl.park): a blocking write, not running code",
    model: () =>
      modelOf([
        {
          threads: workers(19, 20, () => ({
            state: 'RUNNABLE',
            frames: [
              'sun.nio.ch.Net.poll(Native Method)',
              'sun.nio.ch.NioSocketImpl.park',
              'sun.nio.ch.NioSocketImpl.park',
              'sun.nio.ch.NioSocketImpl.implWrite',
              'sun.nio.ch.NioSocketImpl.write',
              'sun.nio.ch.NioSocketImpl$2.write',
              'java.net.Socket$SocketOutputStream.write',
              'com.acme.web.ResponseWriter.flush',
              'com.acme.web.DownloadHandler.handle',
              ...inPoolWorker(),
            ],
          })),
        },
      ]),
    expect: [{ subject: 'http-exec', facts: { heldByOneWait: 19, oneWait: 'com.acme.web.ResponseWriter.flush' } }],
  },
  {
    name: 'negative control: 19 of 20 workers busy computing (no wait): a busy pool doing its work, one worker free',
    model: () => modelOf([{ threads: workers(19, 20, crunching) }]),
    expect: [],
  },
  {
    name: 'negative control: 18 of 20 workers in one wait is below nearlyAll (95 %)',
    model: () => modelOf([{ threads: workers(18, 20, writingResponse) }]),
    expect: [],
  },
  {
    name: 'nearlyAll is an option: 18 of 20 at 0.9',
    model: () => modelOf([{ threads: workers(18, 20, writingResponse) }]),
    options: { nearlyAll: 0.9 },
    expect: [{ subject: 'http-exec', facts: { heldByOneWait: 18 } }],
  },
  {
    name: 'negative control: 19 of 20 busy in different waits (a sleep, a lock, a socket write) are not held by one',
    model: () =>
      modelOf([
        {
          threads: [
            inventoryOwner,
            ...many(7, 'http-exec-', writingResponse),
            ...many(6, 'http-exec-', sleeping).map((t, i) => ({ ...t, name: `http-exec-${8 + i}` })),
            ...many(6, 'http-exec-', onLock).map((t, i) => ({ ...t, name: `http-exec-${14 + i}` })),
            { name: 'http-exec-20', ...idlePoolWorker },
          ],
        },
      ]),
    expect: [],
  },
  {
    name: 'the heap shows the maximum: 19 of 20 held by one wait at its maximum of 20, said so',
    model: () =>
      modelOf([{ threads: workers(19, 20, writingResponse) }], (m) => ({
        executors: m.executors.map((e) => ({
          ...e,
          heap: executorHeap({ maximumPoolSize: 20, poolSize: 20, activeWorkers: 19, queue: { size: 0, capacity: null } }),
        })),
      })),
    expect: [
      { subject: 'http-exec', facts: { heldByOneWait: 19, maxWorkers: 20 }, message: /The pool is at its maximum of 20 workers \(the heap's executor\)\./ },
    ],
  },
  {
    name: 'from one dump, the finding says its maximum is unknown',
    model: () => modelOf([{ threads: workers(19, 20, writingResponse) }]),
    expect: [{ subject: 'http-exec', message: /The pool is at 20 workers; one dump cannot show whether it may grow \(a heap dump would show its maximum\)\./ }],
  },
  {
    name: 'negative control: the heap says the pool may still grow (maximum 40)',
    model: () =>
      modelOf([{ threads: workers(19, 20, writingResponse) }], (m) => ({
        executors: m.executors.map((e) => ({
          ...e,
          heap: executorHeap({ maximumPoolSize: 40, poolSize: 20, activeWorkers: 19, queue: { size: 0, capacity: null } }),
        })),
      })),
    expect: [],
  },
  {
    name: 'negative control: a later dump shows the pool grew past 20',
    model: () => modelOf([{ threads: workers(19, 20, writingResponse) }, { threads: workers(19, 30, writingResponse) }]),
    expect: [],
  },
  {
    name: 'negative control: a server pool of 200 idle workers',
    model: () => modelOf([{ threads: workers(0, 200, writingResponse) }]),
    expect: [],
  },
];

describe('executor-saturated: nearly every worker held by one wait', () => {
  for (const c of NEARLY_ALL_CASES) test(c.name, () => void check('executor-saturated', c));
});

describe('executor-saturated: compute pools and held connections', () => {
  for (const c of COMPUTE_CASES) test(c.name, () => void check('executor-saturated', c));
});
