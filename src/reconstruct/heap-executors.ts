/**
 * ThreadPoolExecutors (and subclasses: Dubbo's eager pool, scheduled pools) as the heap holds them:
 * run state and worker count from `ctl`, busy workers from each Worker's lock state, the queue's kind,
 * size and capacity, completed tasks, and the worker threads' names (java-internals.md, 3.1).
 */
import { collectionElements } from '../heap/collections.js';
import type { HeapObject } from '../heap/heap-model.js';
import { hexId, numberOf, sizeOf, textOf, threadNameOf } from '../heap/heap-values.js';
import type { HeapView } from '../heap/heap-view.js';
import type { ExecutorHeapState } from '../model/model.js';

const RUN_STATES: ReadonlyArray<[number, ExecutorHeapState['runState']]> = [
  [-536870912, 'RUNNING'], // 0xE0000000 as a signed int
  [0, 'SHUTDOWN'],
  [0x20000000, 'STOP'],
  [0x40000000, 'TIDYING'],
  [0x60000000, 'TERMINATED'],
];

export interface HeapExecutor {
  readonly state: ExecutorHeapState;
  /** The name prefix its thread factory gives (Dubbo's mPrefix, Executors' namePrefix), if known. */
  readonly factoryPrefix: string | null;
}

export function heapExecutors(view: HeapView, input: string): HeapExecutor[] {
  return view.instancesOf('java.util.concurrent.ThreadPoolExecutor').map((tpe) => readExecutor(view, tpe, input));
}

function readExecutor(view: HeapView, tpe: HeapObject, input: string): HeapExecutor {
  const ctl = numberOf(view, view.field(tpe, 'ctl') ?? undefined);
  const runBits = ctl === undefined ? undefined : ctl & ~0x1fffffff;
  const runState = RUN_STATES.find(([bits]) => bits === runBits)?.[1] ?? 'UNKNOWN';
  const workers = collectionElements(view, view.follow(tpe, 'workers'));
  let active = 0;
  let workerTasks = 0;
  const names: string[] = [];
  for (const w of workers.items) {
    const worker = view.object(w);
    // AQS state of a Worker: -1 not started yet, 0 idle in getTask, 1 running a task.
    const state = numberOf(view, view.field(worker, 'state') ?? undefined);
    if (state === 1 || state === -1) active++;
    workerTasks += numberOf(view, view.field(worker, 'completedTasks') ?? undefined) ?? 0;
    const name = threadNameOf(view, view.follow(worker, 'thread'));
    if (name !== undefined) names.push(name);
  }
  const queue = view.follow(tpe, 'workQueue');
  const completedDead = numberOf(view, view.field(tpe, 'completedTaskCount') ?? undefined);
  const factory = view.follow(tpe, 'threadFactory');
  const factoryPrefix = factoryNameOf(view, factory);
  return {
    factoryPrefix,
    state: {
      object: { input, id: hexId(tpe.id), className: view.classNameOf(tpe) },
      runState,
      corePoolSize: numberOf(view, view.field(tpe, 'corePoolSize') ?? undefined) ?? null,
      maximumPoolSize: numberOf(view, view.field(tpe, 'maximumPoolSize') ?? undefined) ?? null,
      poolSize: workers.declaredSize ?? workers.items.length,
      activeWorkers: active,
      largestPoolSize: numberOf(view, view.field(tpe, 'largestPoolSize') ?? undefined) ?? null,
      completedTasks: completedDead === undefined ? null : completedDead + workerTasks,
      queue: queueState(view, queue),
      workerThreadNames: names.sort(),
    },
  };
}

/**
 * The String fields in which thread factories keep the name they give their threads, tried in order
 * (a field the factory does not have is skipped). An executor with no worker alive is named by it.
 */
const FACTORY_NAME_FIELDS: ReadonlyArray<{ readonly field: string; readonly factories: string }> = [
  { field: 'mPrefix', factories: "Dubbo's NamedThreadFactory / NamedInternalThreadFactory" },
  {
    field: 'namePrefix',
    factories: "the JDK's Executors$DefaultThreadFactory (pool-N-thread-), Tomcat's TaskThreadFactory, HttpClient 5's DefaultThreadFactory",
  },
  { field: 'threadNamePrefix', factories: "Spring's CustomizableThreadFactory (CustomizableThreadCreator)" },
  { field: 'prefix', factories: "Netty's DefaultThreadFactory" },
  { field: 'threadName', factories: "HikariCP's UtilityElf$DefaultThreadFactory (HikariPool-1 connection adder, ...)" },
  { field: 'val$nameFormat', factories: "Guava's ThreadFactoryBuilder (the anonymous factory keeps its name format)" },
  { field: 'name', factories: 'factories that keep one name for all their threads' },
];

/** A factory written as a lambda (`Util$$Lambda$18`, OkHttp's Util.threadFactory(name, daemon)) keeps its arguments as `arg$N` fields. */
const LAMBDA_CLASS = /\$\$Lambda(?:\$|\/)/;

function factoryNameOf(view: HeapView, factory: HeapObject | undefined): string | null {
  if (factory === undefined) return null;
  for (const { field } of FACTORY_NAME_FIELDS) {
    const text = textOf(view, view.field(factory, field) ?? undefined);
    if (text !== undefined && text.trim() !== '') return text;
  }
  // A lambda that captured exactly one String was given the threads' name (the only text it has).
  if (factory.kind === 'instance' && LAMBDA_CLASS.test(view.classNameOf(factory))) {
    const texts = view.fields(factory).flatMap((f) => {
      const o = view.object(f.value);
      const s = o !== undefined ? view.string(o) : undefined;
      return s !== undefined && s.trim() !== '' ? [s] : [];
    });
    if (texts.length === 1) return texts[0]!;
  }
  return null;
}

const UNBOUNDED = 2147483647;

export function queueState(view: HeapView, q: HeapObject | undefined): ExecutorHeapState['queue'] {
  if (q === undefined) return { className: '(not loaded)', size: null, capacity: null, complete: false };
  const id = hexId(q.id);
  const className = view.classNameOf(q);
  const cls = view.classOf(q);
  const is = (name: string) => cls !== undefined && view.isA(cls, name);
  if (is('java.util.concurrent.SynchronousQueue')) return { className, size: 0, capacity: 0, complete: true, id };
  let size: number | undefined;
  let capacity: number | undefined;
  if (is('java.util.concurrent.LinkedBlockingQueue') || is('java.util.concurrent.LinkedBlockingDeque')) {
    size = numberOf(view, view.field(q, 'count') ?? undefined);
    capacity = numberOf(view, view.field(q, 'capacity') ?? undefined);
  } else if (is('java.util.concurrent.ArrayBlockingQueue')) {
    size = numberOf(view, view.field(q, 'count') ?? undefined);
    const items = view.follow(q, 'items');
    capacity = items?.kind === 'object-array' ? items.elements.length : undefined;
  } else {
    size = numberOf(view, view.field(q, 'size') ?? undefined) ?? sizeOf(view, q);
  }
  return { className, size: size ?? null, capacity: capacity === undefined || capacity >= UNBOUNDED ? null : capacity, complete: size !== undefined, id };
}
