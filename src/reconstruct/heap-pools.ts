/**
 * Connection pools as the heap holds them (java-internals.md, section 4): Apache HttpClient 4 and 5
 * (per route: leased, available, pending, max per route), OkHttp's Dispatcher (running and queued
 * calls against the per-host limit), HikariCP, Druid and commons-pool2.
 */
import { collectionElements, mapEntries } from '../heap/collections.js';
import type { HeapObject, HeapValue } from '../heap/heap-model.js';
import { hexId, numberOf, sizeOf, textOf, threadNameOf } from '../heap/heap-values.js';
import type { HeapView } from '../heap/heap-view.js';
import type { ConnectionPoolModel } from '../model/model.js';

/** A pool as the heap shows it; `waiterNames` when the heap names the threads queued on it (AQS queues). */
export type HeapPool = Omit<ConnectionPoolModel, 'waitingThreads'> & {
  readonly waiterNames?: readonly string[];
  /** The dump id of the collection holding its pending requests (OkHttp's readyAsyncCalls). */
  readonly pendingQueueId?: number;
  /** The dump id of the collection holding its requests in flight (OkHttp's runningAsyncCalls). */
  readonly inFlightId?: number;
};

/** Names of the threads queued on an AQS (head is a dummy; JDK 14+ nodes hold `waiter`, older ones `thread`). */
function queuedThreads(view: HeapView, sync: HeapObject | undefined): string[] {
  const names: string[] = [];
  const seen = new Set<number>();
  for (let node = view.follow(sync, 'head'); node !== undefined && !seen.has(node.id) && names.length < 100_000; node = view.follow(node, 'next')) {
    seen.add(node.id);
    const name = threadNameOf(view, view.follow(node, 'waiter') ?? view.follow(node, 'thread'));
    if (name !== undefined) names.push(name);
  }
  return names;
}

/** Threads waiting on an AQS ConditionObject (firstWaiter, then nextWaiter). */
function conditionWaiters(view: HeapView, condition: HeapObject | undefined): string[] {
  const names: string[] = [];
  const seen = new Set<number>();
  for (
    let node = view.follow(condition, 'firstWaiter');
    node !== undefined && !seen.has(node.id) && names.length < 100_000;
    node = view.follow(node, 'nextWaiter')
  ) {
    seen.add(node.id);
    names.push(threadNameOf(view, view.follow(node, 'waiter') ?? view.follow(node, 'thread')) ?? '?');
  }
  return names;
}

function idOf<K extends string>(v: HeapValue | undefined, key: K): Partial<Record<K, number>> {
  return v !== null && v !== undefined && typeof v === 'object' && v.ref !== 0 ? ({ [key]: v.ref } as Partial<Record<K, number>>) : {};
}

export function heapPools(view: HeapView, input: string): HeapPool[] {
  const ref = (o: HeapObject) => ({ input, id: hexId(o.id), className: view.classNameOf(o) });
  const n = (o: HeapObject | undefined, field: string) => numberOf(view, view.field(o, field) ?? undefined) ?? null;
  const size = (o: HeapObject | undefined, field: string) => sizeOf(view, view.field(o, field) ?? undefined) ?? null;
  const out: HeapPool[] = [];

  // Apache HttpClient 4 (CPool extends AbstractConnPool) and 5 (StrictConnPool): one entry per route in use.
  const apache: Array<[string, ConnectionPoolModel['kind'], string, string]> = [
    ['org.apache.http.pool.AbstractConnPool', 'apache-httpclient-4', 'pending', 'pending'],
    ['org.apache.hc.core5.pool.StrictConnPool', 'apache-httpclient-5', 'pendingRequests', 'pending'],
  ];
  for (const [className, kind, pendingField, routePendingField] of apache) {
    for (const pool of view.instancesOf(className)) {
      const maxTotal = n(pool, 'maxTotal');
      const defaultPerRoute = n(pool, 'defaultMaxPerRoute');
      const perRoute = new Map<string, number>();
      for (const [k, v] of mapEntries(view, view.follow(pool, 'maxPerRoute')).items) {
        const r = routeName(view, k);
        const m = numberOf(view, v);
        if (r !== undefined && m !== undefined) perRoute.set(r, m);
      }
      const routes = mapEntries(view, view.follow(pool, 'routeToPool')).items;
      const base = { kind, maxTotal, source: 'heap' as const, object: ref(pool) };
      const label = kind === 'apache-httpclient-4' ? 'HttpClient 4' : 'HttpClient 5';
      if (routes.length === 0) {
        out.push({
          ...base,
          name: `${label} pool`,
          route: null,
          width: maxTotal,
          leased: size(pool, 'leased'),
          idle: size(pool, 'available'),
          pending: size(pool, pendingField),
        });
        continue;
      }
      for (const [routeKey, routePoolRef] of routes) {
        const route = routeName(view, routeKey) ?? '(route)';
        const rp = view.object(routePoolRef);
        out.push({
          ...base,
          name: `${label} ${route}`,
          route,
          width: perRoute.get(route) ?? defaultPerRoute,
          leased: size(rp, 'leased'),
          idle: size(rp, 'available'),
          // HC5 keeps waiting requests on the pool, not per route.
          pending: size(rp, routePendingField) ?? (routes.length === 1 ? size(pool, pendingField) : null),
        });
      }
    }
  }

  // OkHttp: calls beyond maxRequestsPerHost wait in readyAsyncCalls; no thread parks for them.
  for (const d of view.instancesOf('okhttp3.Dispatcher')) {
    out.push({
      kind: 'okhttp-dispatcher',
      name: 'OkHttp Dispatcher',
      route: null,
      width: n(d, 'maxRequestsPerHost'),
      maxTotal: n(d, 'maxRequests'),
      leased: size(d, 'runningAsyncCalls'),
      idle: null,
      pending: size(d, 'readyAsyncCalls'),
      source: 'heap',
      object: ref(d),
      ...idOf(view.field(d, 'readyAsyncCalls'), 'pendingQueueId'),
      ...idOf(view.field(d, 'runningAsyncCalls'), 'inFlightId'),
    });
  }

  // HikariCP: PoolEntry.state 1 = in use, 0 = idle; waiters counted by the bag.
  for (const pool of view.instancesOf('com.zaxxer.hikari.pool.HikariPool')) {
    const bag = view.follow(pool, 'connectionBag');
    const entries = collectionElements(view, view.follow(bag, 'sharedList')).items.map((e) => view.object(e));
    const states = entries.map((e) => numberOf(view, view.field(e, 'state') ?? undefined));
    const config = view.follow(pool, 'config');
    const name = textOf(view, view.field(pool, 'poolName') ?? view.field(config, 'poolName') ?? undefined);
    out.push({
      kind: 'hikaricp',
      name: `HikariCP ${name ?? 'pool'}`,
      route: null,
      width: n(config, 'maxPoolSize') ?? n(config, 'maximumPoolSize'),
      maxTotal: null,
      leased: states.filter((s) => s === 1).length,
      idle: states.filter((s) => s === 0).length,
      pending: numberOf(view, view.follow(bag, 'waiters')) ?? null,
      source: 'heap',
      object: ref(pool),
    });
  }

  for (const ds of view.instancesOf('com.alibaba.druid.pool.DruidDataSource')) {
    const name = textOf(view, view.field(ds, 'name') ?? undefined);
    out.push({
      kind: 'druid',
      name: `Druid ${name ?? 'DataSource'}`,
      route: null,
      width: n(ds, 'maxActive'),
      maxTotal: null,
      leased: n(ds, 'activeCount'),
      idle: n(ds, 'poolingCount'),
      pending: n(ds, 'notEmptyWaitThreadCount'),
      source: 'heap',
      object: ref(ds),
    });
  }

  for (const p of view.instancesOf('org.apache.commons.pool2.impl.GenericObjectPool')) {
    const all = size(p, 'allObjects');
    const idleObjects = view.follow(p, 'idleObjects');
    const idle = n(idleObjects, 'count');
    // Borrowers blocked on an exhausted pool wait on the idle deque's notEmpty condition.
    const waiting = conditionWaiters(view, view.follow(idleObjects, 'notEmpty')).length;
    out.push({
      kind: 'commons-pool2',
      name: 'commons-pool2 GenericObjectPool',
      route: null,
      width: n(p, 'maxTotal'),
      maxTotal: null,
      leased: all !== null && idle !== null ? all - idle : null,
      idle,
      pending: waiting,
      source: 'heap',
      object: ref(p),
    });
  }
  // Semaphores: the AQS state of their sync is the permits left. Waiters are matched to one by the
  // sync object they park on (its id is in the thread dump's `parking to wait for <0x...>`).
  for (const sem of view.instancesOf('java.util.concurrent.Semaphore')) {
    const sync = view.follow(sem, 'sync');
    const available = numberOf(view, view.field(sync, 'state') ?? undefined) ?? null;
    const waiters = queuedThreads(view, sync);
    out.push({
      kind: 'semaphore',
      name: `Semaphore ${hexId(sem.id)}`,
      route: null,
      width: null,
      maxTotal: null,
      leased: null,
      idle: available,
      pending: waiters.length,
      source: 'heap',
      object: sync !== undefined ? ref(sync) : ref(sem),
      waiterNames: waiters,
    });
  }
  return out;
}

/** `http://127.0.0.1:8080` for an HttpRoute (its target HttpHost), or the text of a plain key. */
function routeName(view: HeapView, v: HeapValue): string | undefined {
  const route = view.object(v);
  if (route === undefined) return undefined;
  const host = view.follow(route, 'targetHost') ?? route;
  // HttpClient 4's HttpHost has hostname and port; 5's keeps them in a Host (name, port).
  const named = view.follow(host, 'host') ?? host;
  const hostname = textOf(view, view.field(host, 'hostname') ?? view.field(host, 'lcHostname') ?? view.field(named, 'name') ?? undefined);
  if (hostname === undefined) return textOf(view, route);
  const scheme = textOf(view, view.field(host, 'schemeName') ?? undefined) ?? 'http';
  const port = numberOf(view, view.field(host, 'port') ?? view.field(named, 'port') ?? undefined);
  return `${scheme}://${hostname}${port !== undefined && port > 0 ? `:${port}` : ''}`;
}
