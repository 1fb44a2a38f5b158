/**
 * HttpClient 5, commons-pool2, a semaphore, and executor kinds (scheduled, Dubbo's eager pool, a full
 * ArrayBlockingQueue), from real JVMs (fixtures/generate-incidents-more.sh), against their truth.
 */
import { join } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import type { Finding } from '../../src/model/findings.js';
import type { Model } from '../../src/model/model.js';
import { analyseIncident, byRule, INCIDENTS, truthOf } from '../helpers.js';

const threadNames = (f: Finding) => f.evidence.flatMap((e) => (e.kind === 'thread' ? [e.thread] : []));

describe('HttpClient 5: 5 per route, 25 waiting', { timeout: 60_000 }, () => {
  it('reports the route with width, leases and waiters', async () => {
    const truth = truthOf('httpclient5-starvation').httpPool;
    const r = await analyseIncident(join(INCIDENTS, 'httpclient5-starvation'));
    const [f] = byRule(r.findings, 'connection-pool-starvation');
    expect(f!.facts).toMatchObject({
      poolKind: 'apache-httpclient-5',
      route: truth.route.replace('{}->', ''),
      width: truth.maxPerRoute,
      maxTotal: truth.maxTotal,
      leased: truth.leased,
      idle: truth.available,
      pending: truth.pending,
      waitingThreads: truth.pending,
    });
    expect(r.findings.filter((x) => x.severity !== 'info').map((x) => x.rule)).toEqual(['connection-pool-starvation']);
  });
});

describe('commons-pool2: 3 objects held, 9 borrowers waiting', { timeout: 60_000 }, () => {
  it('counts the waiters from the pool itself and from the stacks', async () => {
    const truth = truthOf('commons-pool2-starvation').objectPool;
    const r = await analyseIncident(join(INCIDENTS, 'commons-pool2-starvation'));
    const [f] = byRule(r.findings, 'connection-pool-starvation');
    expect(f!.facts).toMatchObject({
      poolKind: 'commons-pool2',
      width: truth.maxTotal,
      leased: truth.active,
      idle: truth.idle,
      pending: truth.waiters,
      waitingThreads: truth.waiters,
    });
    // The render-worker-N threads are twelve threads started one by one (no executor's worker loop, no
    // work queue they wait on): not a pool, so no executor finding, only the pool they starve on.
    expect(byRule(r.findings, 'executor-saturated')).toEqual([]);
    expect(r.model.executors.filter((e) => e.name === 'render' && e.namedLikePool)).toEqual([]);
  });
});

describe('executor kinds and a semaphore', { timeout: 60_000 }, () => {
  const truth = truthOf('scheduled-and-eager-pools');
  let r: { model: Model; findings: Finding[] };
  beforeAll(async () => {
    r = await analyseIncident(join(INCIDENTS, 'scheduled-and-eager-pools'));
  });

  it('reads each executor subclass and queue kind from the heap', () => {
    const heapOf = (prefix: string) => r.model.executors.find((e) => e.heap?.workerThreadNames.some((n) => n.startsWith(prefix)))?.heap;
    for (const [key, prefix] of [
      ['scheduledPool', 'sched-'],
      ['eagerPool', 'eager-'],
      ['arrayBlockingQueuePool', 'abq-'],
    ] as const) {
      const t = truth[key];
      const h = heapOf(prefix);
      expect(h, key).toBeDefined();
      expect(h!.object.className, key).toBe(t.class);
      expect(h, key).toMatchObject({ corePoolSize: t.corePoolSize, maximumPoolSize: t.maximumPoolSize, poolSize: t.poolSize, activeWorkers: t.active });
      expect(h!.queue, key).toMatchObject({
        className: t.queueClass,
        size: t.queueSize,
        capacity: typeof t.queueCapacity === 'number' ? t.queueCapacity : null,
      });
    }
  });

  it('judges them: the full ArrayBlockingQueue is a backlog, the idle scheduled pool is not saturated', () => {
    expect(byRule(r.findings, 'queue-backlog').map((f) => [f.subject, f.severity, f.facts['queueSize'], f.facts['queueCapacity']])).toEqual([
      ['abq', 'error', 5, 5],
    ]);
    expect(
      byRule(r.findings, 'executor-saturated')
        .map((f) => f.subject)
        .sort(),
    ).toEqual(['abq', 'eager']);
  });

  it('finds the semaphore with no permits left and its six waiters, without calling it lock contention', () => {
    const [f] = byRule(r.findings, 'connection-pool-starvation');
    expect(f!.facts).toMatchObject({
      poolKind: 'semaphore',
      idle: truth.semaphore.availablePermits,
      pending: truth.semaphore.queueLength,
      waitingThreads: truth.semaphore.waiters.length,
    });
    expect(threadNames(f!).sort()).toEqual([...truth.semaphore.waiters].sort());
    expect(byRule(r.findings, 'lock-contention')).toEqual([]);
  });
});

describe('Druid (Druid 1.2 names): 4 connections kept by exports, 6 lookups waiting', { timeout: 60_000 }, () => {
  const truth = truthOf('druid-starvation').druidPool;
  let r: { model: Model; findings: Finding[] };
  beforeAll(async () => {
    r = await analyseIncident(join(INCIDENTS, 'druid-starvation'));
  });

  it('reads the pool from DruidDataSource and names the waiters', () => {
    const [f] = byRule(r.findings, 'connection-pool-starvation');
    expect(f!.subject).toBe(`Druid ${truth.name}`);
    expect(f!.facts).toMatchObject({
      poolKind: 'druid',
      width: truth.maxActive,
      leased: truth.pool.activeCount,
      idle: truth.pool.poolingCount,
      pending: truth.pool.notEmptyWaitThreadCount,
      waitingThreads: truth.waiters.length,
    });
    expect(
      threadNames(f!)
        .filter((n, i, all) => all.indexOf(n) === i)
        .sort(),
    ).toEqual([...truth.waiters].sort());
  });

  it('blames the pool for the saturated executor, and does not call the idle create thread stuck', () => {
    const [pool] = byRule(r.findings, 'connection-pool-starvation');
    const [executor] = byRule(r.findings, 'executor-saturated');
    expect(executor!.subject).toBe('order-api-exec');
    expect(executor!.causedBy).toEqual([pool!.id]);
    expect(byRule(r.findings, 'stuck-threads')).toEqual([]);
    expect(r.findings.map((x) => x.rule).sort()).toEqual(['connection-pool-starvation', 'executor-saturated']);
  });

  it('threads only: the waiters parked in DruidDataSource.takeLast, no width', async () => {
    const t = await analyseIncident(join(INCIDENTS, 'druid-starvation'), { threadsOnly: true });
    const pool = t.model.connectionPools.find((p) => p.kind === 'druid');
    expect(pool).toMatchObject({ source: 'threads', width: null });
    expect(pool!.waitingThreads.map((w) => w.threads.length)).toEqual([truth.waiters.length, truth.waiters.length, truth.waiters.length]);
  });
});

describe('Dubbo 2.6 (com.alibaba.dubbo): executes=10 with 10 calls really inside', { timeout: 60_000 }, () => {
  const truth = truthOf('dubbo26-limit-saturated').counter;

  it('reads RpcStatus and URL.parameters of the 2.6 packages, and calls it saturation, not a leak', async () => {
    const r = await analyseIncident(join(INCIDENTS, 'dubbo26-limit-saturated'));
    const counter = r.model.counters.find((c) => c.method === truth.method);
    expect(counter).toMatchObject({
      kind: 'dubbo-executes',
      service: truth.service,
      identity: truth.identity,
      active: truth.methodActive,
      limit: truth.limit,
      limitSource: `URL parameter ${truth.method}.executes`,
      serviceActive: truth.serviceActive,
      total: truth.methodTotal,
    });
    expect(counter!.object.className).toBe(truth.class);
    expect(counter!.threadsInside.map((t) => t.count)).toEqual([truth.threadsInside, truth.threadsInside, truth.threadsInside]);
    expect(r.findings.map((f) => f.rule)).toEqual(['limit-saturated']);
    expect(r.findings[0]!.facts).toMatchObject({ active: truth.methodActive, limit: truth.limit, executingThreads: truth.threadsInside });
  });
});

describe('Dubbo 3.x (ServiceConfigURL, URLParam): 16 async calls never completed', { timeout: 60_000 }, () => {
  const truth = truthOf('dubbo3-active-count-leak').counter;

  it('finds the limit in the inverted METHOD_PARAMETERS and reports the leak', async () => {
    const r = await analyseIncident(join(INCIDENTS, 'dubbo3-active-count-leak'));
    const counter = r.model.counters.find((c) => c.method === truth.method);
    expect(counter).toMatchObject({
      service: truth.service,
      identity: truth.identity,
      active: truth.methodActive,
      limit: truth.limit,
      limitSource: `URLParam METHOD_PARAMETERS ${truth.method}.executes`,
      serviceActive: truth.serviceActive,
    });
    expect(counter!.object.className).toBe(truth.class);
    expect(r.findings.map((f) => f.rule)).toEqual(['active-count-leak']);
    expect(r.findings[0]!.facts).toMatchObject({ active: truth.methodActive, limit: truth.limit, executingThreads: truth.threadsInside });
  });
});
