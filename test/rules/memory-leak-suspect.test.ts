/**
 * memory-leak-suspect: hand-built memory summaries (a map retaining most of the heap: error; a
 * queue that is an executor's backlog, linked to that finding; and the controls: a small heap's
 * share, a suspect below minShare). The real JVMs' suspects are checked in
 * test/rules/memory-meets-concurrency.test.ts.
 */
import { describe, test } from 'vitest';

import { holderGroups } from '../../src/heap/graph/class-loaders.js';
import type { DefiningLoader, LoaderHolder, RedefinedClass } from '../../src/model/class-loaders.js';
import type { LeakSuspect, MemorySummary, RetainedObject } from '../../src/model/memory.js';
import type { Model } from '../../src/model/model.js';
import { type Case, check, executorHeap, inPoolWorker, many, modelOf } from './build.js';

const MB = 1024 * 1024;
const object = (className: string, id: string, retained: number): RetainedObject => ({ index: Number.parseInt(id, 16), id, className, shallow: 48, retained });

/** One object retaining `share` of a heap of `heapMB`, accumulating in `accumulation` (its table or queue nodes). */
function suspect(holder: string, accumulation: RetainedObject, share: number, heapMB: number, chainLinks?: number): LeakSuspect {
  const retained = Math.round(share * heapMB * MB);
  return {
    kind: 'object',
    subject: object(holder, '0xf0001000', retained),
    className: holder,
    instances: 1,
    retained,
    share,
    accumulation: { ...accumulation, dominated: 40_000, ...(chainLinks !== undefined ? { chainLinks } : {}) },
    path: [
      { object: object('java.lang.Class', '0xf0000100', retained), rootKind: 'sticky class' },
      { object: object(holder, '0xf0001000', retained), via: 'static SESSIONS' },
    ],
  };
}

const summary = (heapMB: number, suspects: LeakSuspect[]): MemorySummary => ({
  objects: 100_000,
  reachableObjects: 90_000,
  shallowBytes: heapMB * MB,
  retainedBytes: heapMB * MB,
  unreachable: { objects: 0, bytes: 0 },
  roots: {},
  missingReferences: 0,
  dominators: [],
  classes: [],
  suspects,
});

const withMemory = (heapMB: number, suspects: LeakSuspect[], more: (m: Model) => Partial<Model> = () => ({})): Model =>
  modelOf(
    [
      {
        threads: many(2, 'report-render-thread-', () => ({
          state: 'TIMED_WAITING',
          detail: 'sleeping',
          frames: inPoolWorker('java.lang.Thread.sleep', 'com.acme.Report.render'),
        })),
      },
    ],
    (m) => ({
      memory: [{ input: 'heap.hprof', summary: summary(heapMB, suspects) }],
      ...more(m),
    }),
  );

const table = object('java.util.concurrent.ConcurrentHashMap$Node[]', '0xf0002000', 200 * MB);
const nodes = object('java.util.concurrent.LinkedBlockingQueue$Node', '0xf0003000', 150 * MB);

const CASES: Case[] = [
  {
    name: 'a map holding 80% of a 256 MB heap: where it accumulates and the static field that keeps it',
    model: () => withMemory(256, [suspect('com.acme.SessionRegistry', table, 0.8, 256)]),
    expect: [
      {
        subject: 'com.acme.SessionRegistry 0xf0001000',
        severity: 'error',
        facts: { share: 0.8, accumulationClass: 'java.util.concurrent.ConcurrentHashMap$Node[]', holderKind: 'a map' },
        message: /80\.0% of the .* reachable heap\. The memory accumulates in java\.util\.concurrent\.ConcurrentHashMap\$Node\[\] 0xf0002000 \(a map\)/,
        causedBy: [],
      },
    ],
  },
  {
    name: "a queue that is an executor's backlog: the suspect says so and links to the queue-backlog finding",
    model: () =>
      withMemory(256, [suspect('java.util.concurrent.ThreadPoolExecutor', nodes, 0.3, 256, 20_000)], (m) => ({
        executors: m.executors.map((e) => ({
          ...e,
          heap: executorHeap({
            object: { input: 'heap.hprof', id: '0xf0001000', className: 'java.util.concurrent.ThreadPoolExecutor' },
            maximumPoolSize: 2,
            poolSize: 2,
            activeWorkers: 2,
            queue: { size: 20_000, id: nodes.id },
          }),
        })),
      })),
    expect: [
      {
        subject: 'java.util.concurrent.ThreadPoolExecutor 0xf0001000',
        severity: 'warning',
        facts: { holderKind: 'a queue', accumulationChainLinks: 20_000 },
        message: /This is the queue of executor "report-render"/,
        causedBy: ['queue-backlog:report-render'],
      },
    ],
  },
  {
    name: 'memory spread over what one object holds: no single accumulation point, and the biggest of what it holds named with their sizes',
    model: () => {
      const spread = suspect('com.acme.Caches', object('com.acme.Caches', '0xf0001000', 230 * MB), 0.9, 256);
      const biggest = [object('java.util.HashMap', '0xf0004000', 120 * MB), object('java.util.ArrayList', '0xf0005000', 60 * MB)];
      return withMemory(256, [{ ...spread, accumulation: { ...spread.accumulation, dominated: 5, biggest } }]);
    },
    expect: [
      {
        subject: 'com.acme.Caches 0xf0001000',
        message: /none of which retains most of it; the biggest java\.util\.HashMap 0xf0004000 \(120(\.0)? MiB\), java\.util\.ArrayList /,
      },
    ],
  },
  {
    name: 'negative control: a third of a 12 MB heap is under minRetainedMB',
    model: () => withMemory(12, [suspect('com.acme.SessionRegistry', table, 0.3, 12)]),
    expect: [],
  },
  {
    name: 'the size floor is an option',
    model: () => withMemory(12, [suspect('com.acme.SessionRegistry', table, 0.3, 12)]),
    options: { minRetainedMB: 1 },
    expect: [{ subject: 'com.acme.SessionRegistry 0xf0001000' }],
  },
  {
    name: 'negative control: 5% of the heap is below minShare',
    model: () => withMemory(1024, [suspect('com.acme.SessionRegistry', table, 0.05, 1024)]),
    expect: [],
  },
  { name: 'negative control: no memory analysis', model: () => withMemory(256, []), expect: [] },
  {
    name: 'a class defined by 20 loaders kept alive: what keeps them, grouped by holder, the loaders as evidence',
    model: () => withLoaders(redefined(12, 8, 0)),
    expect: [
      {
        subject: 'com.acme.plugin.ReportPlugin',
        severity: 'warning',
        facts: { kind: 'class-loaders', loaders: 20, loadersKeptAlive: 20, holderKinds: ['static', 'thread-local'] },
        message:
          /defined by 20 class loaders .*: 12 through static com\.acme\.host\.Registry\.INSTANCES, 8 through a ThreadLocal .* on thread "request-worker-1"/,
      },
    ],
  },
  {
    name: "a list a running method's local variable holds: the finding names the frame and the thread, and says what to change there",
    model: () => {
      const list = object('java.util.ArrayList', '0xf0002000', 200 * MB);
      const held = suspect('java.lang.Thread', object('java.lang.Object[]', '0xf0003000', 200 * MB), 0.8, 256);
      const frame = { threadId: '0xf0001000', threadName: 'nightly-export', depth: 5, frame: 'com.acme.Export.exportAll(Export.java:23)' };
      return withMemory(256, [{ ...held, stackHolder: { ...list, stackFrames: [frame] } }]);
    },
    expect: [
      {
        subject: 'java.lang.Thread 0xf0001000',
        message: /held on a thread's stack: a local variable of com\.acme\.Export\.exportAll\(Export\.java:23\) in thread "nightly-export"/,
        facts: { heldOnStack: ['a local variable of com.acme.Export.exportAll(Export.java:23) in thread "nightly-export"'] },
      },
    ],
  },
  {
    name: 'negative control: 4 loaders of one class (a few applications each with its copy) are under minLoaders',
    model: () => withLoaders(redefined(4, 0, 0)),
    expect: [],
  },
  {
    name: 'negative control: loaders held through weak references only do not count',
    model: () => withLoaders(redefined(2, 0, 18)),
    expect: [],
  },
  {
    name: 'the loader count is an option',
    model: () => withLoaders(redefined(4, 0, 0)),
    options: { minLoaders: 3 },
    expect: [{ subject: 'com.acme.plugin.ReportPlugin', facts: { loadersKeptAlive: 4 } }],
  },
  {
    name: "negative control: a suspect no stack keeps says nothing of a thread's stack",
    model: () => withMemory(256, [suspect('com.acme.SessionRegistry', table, 0.5, 256)]),
    expect: [{ subject: 'com.acme.SessionRegistry 0xf0001000', message: /^(?![\s\S]*thread's stack)/, facts: { heldOnStack: null } }],
  },
];

/** A class defined by loaders kept by a static, by a ThreadLocal, and by nothing strong. */
function redefined(byStatic: number, byThreadLocal: number, weakOnly: number): RedefinedClass {
  const thread: RetainedObject = { ...object('java.lang.Thread', '0xf0009000', 4096), threadName: 'request-worker-1' };
  const holders: Array<LoaderHolder | undefined> = [
    ...Array.from({ length: byStatic }, (): LoaderHolder => ({ kind: 'static', field: 'com.acme.host.Registry.INSTANCES' })),
    ...Array.from({ length: byThreadLocal }, (): LoaderHolder => ({ kind: 'thread-local', holder: thread, field: 'com.acme.plugin.ReportPlugin.CURRENT' })),
    ...Array.from({ length: weakOnly }, () => undefined),
  ];
  const loaders: DefiningLoader[] = holders.map((keptBy, i) => ({
    loader: object('java.net.URLClassLoader', `0xf01${i.toString(16).padStart(5, '0')}`, 3500),
    name: `plugin-deploy-${i + 1}`,
    ...(keptBy !== undefined ? { keptBy } : {}),
  }));
  return {
    className: 'com.acme.plugin.ReportPlugin',
    sameLoadersClasses: 0,
    loaderCount: loaders.length,
    loaderClasses: ['java.net.URLClassLoader'],
    retained: 3500 * loaders.length,
    classes: loaders.length,
    classesRetained: 33_000 * loaders.length,
    loaders,
    keptBy: holderGroups(loaders),
  };
}

const withLoaders = (c: RedefinedClass): Model =>
  modelOf([{ threads: [] }], () => ({
    memory: [{ input: 'heap.hprof', summary: { ...summary(64, []), classLoaders: { classes: [c], moreClasses: 0 } } }],
  }));

describe('memory-leak-suspect: hand-built cases', () => {
  for (const c of CASES) test(c.name, () => void check('memory-leak-suspect', c));
});
