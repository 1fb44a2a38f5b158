/**
 * Lines the heap's story up with the threads' story: executors found in the heap joined to the pools
 * seen in thread names, counters with the threads inside their methods and the rejections in logs,
 * connection pools with the threads waiting for a lease, and shutdown hooks at work. Without a heap
 * dump, it says what the stacks allow and what a heap dump would add.
 */
import type { HeapInput } from '../heap/heap-input.js';
import { threadNameOf } from '../heap/heap-values.js';
import type { ThreadActivity } from '../model/activity.js';
import type { ConnectionPoolModel, CounterModel, ExecutorModel, LogEventModel, ShutdownModel, ThreadRef } from '../model/model.js';
import type { ThreadDump } from '../model/thread-dump.js';
import { sightingOfDump, whyNotOneJvm } from '../threads/jvm-identity.js';
import { poolDisplayName, poolNameOf, poolPattern, serverOfPool } from '../threads/pool-naming.js';
import { dumpLabel } from '../threads/series.js';
import { dubboCounters } from './dubbo-counters.js';
import { heapExecutors } from './heap-executors.js';
import { sightingOfHeap } from './heap-identity.js';
import { HeapMemoryLinks } from './heap-memory-links.js';
import { heapPools } from './heap-pools.js';
import { handlingDubboRequest, insideServiceMethod, LEASE_KINDS, leaseWaitOf, shutdownHookKind } from './stack-signs.js';
import { userCounters, type UserCounterSpec } from './user-counters.js';

export interface Concurrency {
  readonly executors: ExecutorModel[];
  readonly counters: CounterModel[];
  readonly connectionPools: ConnectionPoolModel[];
  readonly shutdown: ShutdownModel;
  readonly notes: string[];
}

/** A thread dump is of the heap's JVM when most of its thread names are threads in the heap. */
const SAME_JVM_OVERLAP = 0.5;

export function reconstructConcurrency(
  dumps: readonly ThreadDump[],
  nameExecutors: readonly ExecutorModel[],
  heaps: readonly HeapInput[],
  logEvents: readonly LogEventModel[],
  userSpecs: readonly UserCounterSpec[],
  activity: readonly (readonly ThreadActivity[])[] = [],
): Concurrency {
  const ref = (dump: number, thread: number): ThreadRef => ({ dump, thread, name: dumps[dump]!.threads[thread]!.name });
  const notes: string[] = [];
  const waiters = leaseWaitersByKind(dumps, ref);
  const executors = [...nameExecutors];
  const counters: CounterModel[] = [];
  const pools: ConnectionPoolModel[] = [];

  for (const heap of heaps) {
    const heapThreadNames = new Set(
      heap.view
        .instancesOf('java.lang.Thread')
        .map((t) => threadNameOf(heap.view, t))
        .filter((n): n is string => n !== undefined),
    );
    // A thread dump is lined up with the heap when its threads are the heap's, and nothing they
    // both hold says two JVMs (another instance of the same service has the same thread names).
    const heapSighting = sightingOfHeap(heap.view, heap.path);
    const otherJvm: string[] = [];
    const sameJvm = dumps
      .map((d, i) => ({ d, i }))
      .filter(({ d }) => d.threads.length > 0 && d.threads.filter((t) => heapThreadNames.has(t.name)).length >= d.threads.length * SAME_JVM_OVERLAP)
      .filter(({ d }) => {
        const why = whyNotOneJvm(heapSighting, sightingOfDump(d, dumpLabel(d)));
        if (why !== undefined) otherJvm.push(why);
        return why === undefined;
      })
      .map(({ i }) => i);
    if (otherJvm.length > 0) {
      notes.push(
        `${heap.path} is not of the JVM of the thread dumps: ${otherJvm[0]}; heap and threads ` +
          'were not lined up, so counters and pools in the heap are judged without the thread dumps',
      );
    } else if (dumps.length > 0 && sameJvm.length === 0) {
      notes.push(`${heap.path}: its threads do not match the thread dumps' (another JVM?); heap and threads were not lined up`);
    }

    const links = heap.memory?.analysis !== undefined ? new HeapMemoryLinks(heap.memory.analysis, heap.view) : undefined;
    const heapExecutorsFound = heapExecutors(heap.view, heap.path);
    const heapPoolsFound = heapPools(heap.view, heap.path);
    // What each queue and pool retains, looked up together (one scan of the graph's ids).
    const retained = links?.retainedOf([
      ...heapExecutorsFound.flatMap((h) => (h.state.queue.id !== undefined ? [Number(h.state.queue.id)] : [])),
      ...heapPoolsFound.flatMap((p) => [...(p.object !== null ? [Number(p.object.id)] : []), ...(p.pendingQueueId !== undefined ? [p.pendingQueueId] : [])]),
    ]);
    const retainedOf = (id: number | string | undefined) => (id === undefined ? undefined : retained?.get(Number(id)));

    for (const found of heapExecutorsFound) {
      const queueBytes = retainedOf(found.state.queue.id);
      const h = queueBytes === undefined ? found : { ...found, state: { ...found.state, queue: { ...found.state.queue, retainedBytes: queueBytes } } };
      const workers = new Set(h.state.workerThreadNames);
      let joined = false;
      for (let k = 0; k < executors.length; k++) {
        const e = executors[k]!;
        if (e.source !== 'thread-names' || !sameJvm.includes(e.dump)) continue;
        const names = [...e.busyThreads, ...e.idleThreads].map((t) => t.name);
        const overlap = names.filter((n) => workers.has(n)).length;
        if (workers.size > 0 && overlap >= Math.min(workers.size, names.length) * 0.5) {
          executors[k] = { ...e, source: 'heap+threads', heap: h.state };
          joined = true;
        }
      }
      if (!joined) {
        const pattern = h.state.workerThreadNames.length > 0 ? poolPattern(h.state.workerThreadNames[0]!) : null;
        // Its name as its threads carry it: their pattern, the factory's name, the one worker's name, and only then its address.
        const name =
          (pattern !== null ? poolDisplayName(pattern) || pattern : undefined) ||
          (h.factoryPrefix != null ? factoryStem(h.factoryPrefix) : '') ||
          h.state.workerThreadNames[0] ||
          `${h.state.object.className}@${h.state.object.id}`;
        executors.push({
          name,
          source: 'heap',
          namedLikePool: true,
          loop: null,
          dump: -1,
          workers: h.state.poolSize,
          busy: h.state.activeWorkers,
          idle: h.state.poolSize - h.state.activeWorkers,
          busyThreads: [],
          idleThreads: [],
          busyActivities: [],
          heap: h.state,
        });
      }
    }

    for (const c of [...dubboCounters(heap.view, heap.path), ...userCounters(heap.view, heap.path, userSpecs)]) {
      const threadsInside = sameJvm.map((di) => {
        const inside = dumps[di]!.threads.flatMap((th, ti) => (insideCounter(th, c) ? [ref(di, ti)] : []));
        return { dump: di, count: inside.length, threads: inside };
      });
      const rejections = logEvents
        .filter((e) => e.kind === 'dubbo-executes-rejected' && e.method === c.method && e.service === c.service)
        .reduce((n, e) => n + e.count, 0);
      counters.push({ ...c, threadsInside, rejectionsLogged: rejections });
    }

    const callers = links?.threadsWaitingFor(
      heapPoolsFound.flatMap((p) => [p.pendingQueueId, p.inFlightId].filter((x): x is number => x !== undefined)),
      waitingInsideTasks(dumps, sameJvm, activity),
    );
    for (const p of heapPoolsFound) {
      const all = waiters.get(p.kind) ?? [];
      let waitingThreads = sameJvm.map((di) => all.find((w) => w.dump === di) ?? { dump: di, threads: [] });
      const queuedCallers = p.pendingQueueId !== undefined ? (callers?.get(p.pendingQueueId) ?? []) : [];
      const inFlightCallers = p.inFlightId !== undefined ? (callers?.get(p.inFlightId) ?? []) : [];
      if (queuedCallers.length > 0) {
        // Callers parked on futures of queued calls wait for this pool as surely as lease waiters do;
        // callers of calls in flight are like lease holders: they wait for the downstream.
        const named = new Set(queuedCallers);
        waitingThreads = waitingThreads.map((w) => {
          const have = new Set(w.threads.map((t) => t.thread));
          const more = dumps[w.dump]!.threads.flatMap((th, ti) =>
            named.has(th.name) && !have.has(ti) && activity[w.dump]?.[ti]?.activity === 'working' ? [ref(w.dump, ti)] : [],
          );
          return { dump: w.dump, threads: [...w.threads, ...more] };
        });
      }
      if (p.kind === 'semaphore') {
        // Many semaphores live in a JVM, and a compacting collector moves them between dumps: a waiter
        // belongs to the one whose queue (in the heap) names it, or whose sync it parks on.
        if ((p.pending ?? 0) === 0) continue;
        const queued = new Set(p.waiterNames ?? []);
        const syncId = Number(p.object?.id);
        waitingThreads = waitingThreads.map((w) => ({
          dump: w.dump,
          threads: w.threads.filter((t) => queued.has(t.name) || parksOn(dumps[t.dump]!.threads[t.thread]!, syncId)),
        }));
      }
      const { waiterNames: _names, pendingQueueId, inFlightId: _inFlight, ...pool } = p;
      const poolBytes = retainedOf(p.object?.id);
      const pendingBytes = retainedOf(pendingQueueId);
      pools.push({
        ...pool,
        waitingThreads,
        ...(poolBytes !== undefined ? { retainedBytes: poolBytes } : {}),
        ...(pendingBytes !== undefined ? { pendingRetainedBytes: pendingBytes } : {}),
        ...(queuedCallers.length + inFlightCallers.length > 0
          ? { callersWaiting: { queued: [...queuedCallers].sort(), inFlight: [...inFlightCallers].sort() } }
          : {}),
      });
    }
  }

  // Threads-only: threads parked in a pool's lease method, for pool kinds no heap dump described.
  const described = new Set(pools.map((p) => p.kind));
  for (const { kind, pool } of LEASE_KINDS) {
    if (described.has(kind) || !waiters.has(kind)) continue;
    pools.push({
      kind,
      name: pool,
      route: null,
      width: null,
      maxTotal: null,
      leased: null,
      idle: null,
      pending: null,
      waitingThreads: waiters.get(kind)!,
      source: 'threads',
      object: null,
    });
  }
  // The note only where a heap dump would change the diagnosis: Dubbo providers, or threads waiting on a pool.
  const heapWouldHelp = waiters.size > 0 || dumps.some((d) => d.threads.some((th) => serverOfPool(poolNameOf(th.name) ?? '') === 'Dubbo provider'));
  if (heaps.length === 0 && heapWouldHelp) {
    notes.push(
      'no heap dump given: counters (Dubbo RpcStatus), executor queues and connection-pool widths ' +
        'come from a heap dump of the same JVM (jmap -dump:live,format=b,file=heap.hprof <pid>)',
    );
  }
  return { executors, counters, connectionPools: pools, shutdown: shutdownOf(dumps, ref), notes };
}

/** Names of the threads parked or waiting inside a task in the dumps of the heap's JVM: those that may wait for queued work. */
function waitingInsideTasks(dumps: readonly ThreadDump[], sameJvm: readonly number[], activity: readonly (readonly ThreadActivity[])[]): Set<string> {
  const out = new Set<string>();
  for (const di of sameJvm) {
    dumps[di]!.threads.forEach((th, ti) => {
      if (activity[di]?.[ti]?.activity === 'working' && (th.state === 'WAITING' || th.state === 'TIMED_WAITING')) out.add(th.name);
    });
  }
  return out;
}

function insideCounter(th: ThreadDump['threads'][number], c: Omit<CounterModel, 'threadsInside' | 'rejectionsLogged'> & { insideFrame?: string }): boolean {
  if (c.kind === 'user')
    return c.insideFrame !== undefined && th.frames.some((f) => f.qualified === c.insideFrame || f.qualified.endsWith('.' + c.insideFrame));
  if (c.method === null) return false;
  return insideServiceMethod(th, c.service, c.method, c.kind === 'dubbo-actives' ? 'actives' : 'executes');
}

function parksOn(th: ThreadDump['threads'][number], objectId: number): boolean {
  return th.locks.some((l) => l.kind === 'parking' && l.lock !== null && l.lock.id.length > 0 && Number(l.lock.id) === objectId);
}

/** Every thread parked for a lease, per pool kind and dump, in one walk over the threads. */
function leaseWaitersByKind(
  dumps: readonly ThreadDump[],
  ref: (d: number, t: number) => ThreadRef,
): Map<ConnectionPoolModel['kind'], ConnectionPoolModel['waitingThreads']> {
  const out = new Map<ConnectionPoolModel['kind'], Array<{ dump: number; threads: ThreadRef[] }>>();
  dumps.forEach((d, di) => {
    d.threads.forEach((th, ti) => {
      const kind = leaseWaitOf(th)?.detail.kind;
      if (kind === undefined) return;
      let perDump = out.get(kind);
      if (perDump === undefined) out.set(kind, (perDump = dumps.map((_, i) => ({ dump: i, threads: [] as ThreadRef[] }))));
      perDump[di]!.threads.push(ref(di, ti));
    });
  });
  return out;
}

function shutdownOf(dumps: readonly ThreadDump[], ref: (d: number, t: number) => ThreadRef): ShutdownModel {
  const out: ShutdownModel['dumps'] = [];
  dumps.forEach((d, di) => {
    const hooks: ShutdownModel['dumps'][number]['hooks'] = [];
    d.threads.forEach((th, ti) => {
      const kind = shutdownHookKind(th);
      if (kind !== undefined) hooks.push({ kind, thread: ref(di, ti), doing: doing(th) });
    });
    if (hooks.length === 0) return;
    const inFlight: ThreadRef[] = [];
    d.threads.forEach((th, ti) => {
      if (shutdownHookKind(th) === undefined && handlingDubboRequest(th)) inFlight.push(ref(di, ti));
    });
    out.push({ dump: di, hooks, inFlight });
  });
  return { dumps: out };
}

/** What a thread is doing in one line: its state and the first frame outside the JDK. */
function doing(th: ThreadDump['threads'][number]): string {
  const own = th.frames.find((f) => !/^(?:java|jdk|sun)\./.test(f.className));
  const top = th.frames[0];
  const where =
    own && top && own !== top
      ? `${top.className.slice(top.className.lastIndexOf('.') + 1)}.${top.method} in ${own.qualified}`
      : (top?.qualified ?? '(no stack)');
  return `${th.state.toLowerCase()}: ${where}`;
}

/** A thread factory's name prefix without its `%d` and its trailing `-thread-` (`order-%d-thread-` → `order`), read in code. */
function factoryStem(prefix: string): string {
  const seps = (t: string) => {
    let end = t.length;
    while (end > 0 && '-_ '.includes(t.charAt(end - 1))) end--;
    return t.slice(0, end);
  };
  let t = seps(prefix.split('%d').join(''));
  if (t.toLowerCase().endsWith('thread')) t = seps(t.slice(0, t.length - 'thread'.length));
  return t;
}
