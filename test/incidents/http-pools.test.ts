/**
 * Incident 1 and its relatives, from real JVMs (fixtures/incidents, made by
 * fixtures/generate-incidents-http.sh): the right findings with the right facts and cause links, the
 * same incidents read from thread dumps alone, and a healthy service that must stay quiet.
 */
import { join } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import type { Finding } from '../../src/model/findings.js';
import { severityRank } from '../../src/model/findings.js';
import type { Model } from '../../src/model/model.js';
import { analyseIncident, byRule, INCIDENTS, truthOf } from '../helpers.js';

describe('incident 1: a 5-wide HTTP pool starves a 40-thread provider (HttpClient 4 via RestTemplate)', { timeout: 60_000 }, () => {
  const truth = truthOf('http-pool-starvation');
  let r: { model: Model; findings: Finding[] };
  beforeAll(async () => {
    r = await analyseIncident(join(INCIDENTS, 'http-pool-starvation'));
  });

  it('reads every dump cleanly (JDK 17 SMR blocks with a _to_delete_list included)', () => {
    expect(r.model.inputs.map((i) => [i.kind, i.unparsedLines])).toEqual([
      ['threads', 0],
      ['threads', 0],
      ['threads', 0],
      ['heap', 0],
    ]);
  });

  it('finds the starved HTTP pool with its width, leases and waiters', () => {
    const [f] = byRule(r.findings, 'connection-pool-starvation');
    expect(f).toBeDefined();
    expect(f!.severity).toBe('error');
    expect(f!.facts).toMatchObject({
      poolKind: 'apache-httpclient-4',
      width: truth.httpPool.maxPerRoute,
      maxTotal: truth.httpPool.maxTotal,
      leased: truth.atDump['heap.hprof.gz'].httpPool.leased,
      pending: truth.atDump['heap.hprof.gz'].httpPool.pending,
      source: 'heap',
    });
    expect(f!.facts['route']).toBe(`http://127.0.0.1:${truth.httpPool.routePool.targetHost.port}`);
    expect(f!.facts['waitingThreads']).toBe(truth.httpPool.leaseWaiters.length);
    expect(f!.evidence.some((e) => e.kind === 'heap-object' && e.className === truth.httpPool.class)).toBe(true);
  });

  it('finds the provider backlog, caused by the starved pool, with a drain estimate and its inputs', () => {
    const [f] = byRule(r.findings, 'queue-backlog');
    expect(f).toBeDefined();
    expect(f!.subject).toBe('DubboServerHandler-127.0.0.1:20880');
    expect(f!.facts).toMatchObject({
      queueSize: truth.atDump['heap.hprof.gz'].queueSize,
      queueCapacity: null,
      busyWorkers: truth.providerPool.maximumPoolSize,
      maxWorkers: truth.providerPool.maximumPoolSize,
      downstreamWidth: truth.httpPool.maxPerRoute,
    });
    expect(f!.facts['drainSeconds']).toBeGreaterThan(60);
    expect(String(f!.facts['drainBasis'])).toMatch(/calls finished over/);
    expect(f!.causedBy).toEqual([byRule(r.findings, 'connection-pool-starvation')[0]!.id]);
  });

  it('says the provider pool is saturated, for the same cause, once', () => {
    const saturated = byRule(r.findings, 'executor-saturated');
    expect(saturated.map((f) => f.subject)).toEqual(['DubboServerHandler-127.0.0.1:20880']);
    expect(saturated[0]!.causedBy).toContain(byRule(r.findings, 'connection-pool-starvation')[0]!.id);
  });

  it('does not call the lease waiters or holders stuck threads of their own, nor the pool a lock contention', () => {
    // The holders serve a new 2 s call in every dump (truth: leaseHolders change), with the same stack.
    expect(byRule(r.findings, 'stuck-threads')).toEqual([]);
    expect(byRule(r.findings, 'lock-contention')).toEqual([]);
  });

  it('threads only: the waiters and the saturated pool, and a note on what a heap dump adds', async () => {
    const t = await analyseIncident(join(INCIDENTS, 'http-pool-starvation'), { threadsOnly: true });
    const [f] = byRule(t.findings, 'connection-pool-starvation');
    expect(f).toMatchObject({ severity: 'warning', facts: { source: 'threads', width: null, waitingThreads: truth.httpPool.leaseWaiters.length } });
    expect(byRule(t.findings, 'executor-saturated')).toHaveLength(1);
    expect(byRule(t.findings, 'queue-backlog')).toEqual([]);
    expect(t.model.notes.join('\n')).toMatch(/heap dump/);
  });
});

describe('OkHttp: calls queue in the dispatcher behind maxRequestsPerHost', { timeout: 60_000 }, () => {
  const truth = truthOf('okhttp-dispatcher-queue');
  it('reports the dispatcher with running and queued calls', async () => {
    const r = await analyseIncident(join(INCIDENTS, 'okhttp-dispatcher-queue'));
    const [f] = byRule(r.findings, 'connection-pool-starvation');
    expect(f).toBeDefined();
    // The numbers when the heap dump was taken (the ready queue drains as calls finish).
    const atHeap = truth.atDump['heap.hprof.gz'].dispatcher;
    expect(f!.facts).toMatchObject({
      poolKind: 'okhttp-dispatcher',
      width: atHeap.maxRequestsPerHost,
      leased: atHeap.runningAsyncCalls,
      pending: atHeap.readyAsyncCalls,
      waitingThreads: 0,
    });
    // Its housekeeping threads are idle, not stuck.
    expect(byRule(r.findings, 'stuck-threads').filter((x) => /AsyncTimeout|ConnectionPool/.test(String(x.facts['frame'])))).toEqual([]);
  });
});

describe('HikariCP: 4 connections held, 16 threads waiting', { timeout: 60_000 }, () => {
  const truth = truthOf('hikari-starvation');
  let r: { model: Model; findings: Finding[] };
  beforeAll(async () => {
    r = await analyseIncident(join(INCIDENTS, 'hikari-starvation'));
  });
  it('reports the pool with its numbers and the waiting threads', () => {
    const [f] = byRule(r.findings, 'connection-pool-starvation');
    expect(f).toBeDefined();
    expect(f!.subject).toBe(`HikariCP ${truth.hikariPool.poolName}`);
    expect(f!.facts).toMatchObject({
      poolKind: 'hikaricp',
      width: truth.hikariPool.maximumPoolSize,
      leased: truth.hikariPool.active,
      idle: truth.hikariPool.idle,
      pending: truth.hikariPool.waiting,
      waitingThreads: truth.hikariPool.waiting,
    });
    const names = f!.evidence.filter((e) => e.kind === 'thread').map((e) => (e as { thread: string }).thread);
    expect(names.sort()).toEqual([...truth.hikariPool.waiters].sort());
  });
  it('does not report the waiters on the pool hand-off queue as lock contention', () => {
    expect(byRule(r.findings, 'lock-contention')).toEqual([]);
  });
});

describe('negative control: a healthy provider under light load', { timeout: 60_000 }, () => {
  it('raises nothing at warning or above, with or without the heap dump', async () => {
    for (const threadsOnly of [false, true]) {
      const r = await analyseIncident(join(INCIDENTS, 'healthy-light-load'), { threadsOnly });
      expect(r.findings.filter((f) => severityRank(f.severity) >= severityRank('warning')).map((f) => f.id)).toEqual([]);
      if (!threadsOnly) {
        expect(r.model.connectionPools.length).toBeGreaterThan(0);
        expect(r.model.executors.some((e) => e.source === 'heap+threads')).toBe(true);
      }
    }
  });
});
