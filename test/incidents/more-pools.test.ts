/**
 * HttpClient 5, commons-pool2, a semaphore, and executor kinds (scheduled, Dubbo's eager pool, a full
 * ArrayBlockingQueue), from real JVMs (fixtures/generate-incidents-more.sh), against their truth.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/model/findings.js';
import type { Model } from '../../src/model/model.js';
import { analyseIncident, INCIDENTS } from '../helpers.js';

const truthOf = (name: string) => JSON.parse(readFileSync(join(INCIDENTS, name, 'truth.json'), 'utf8'));
const byRule = (findings: Finding[], rule: string) => findings.filter((f) => f.rule === rule);
const threadNames = (f: Finding) => f.evidence.flatMap((e) => (e.kind === 'thread' ? [e.thread] : []));

describe('HttpClient 5: 5 per route, 25 waiting', { timeout: 60_000 }, () => {
  it('reports the route with width, leases and waiters', async () => {
    const truth = truthOf('httpclient5-starvation').httpPool;
    const r = await analyseIncident(join(INCIDENTS, 'httpclient5-starvation'));
    const [f] = byRule(r.findings, 'connection-pool-starvation');
    expect(f!.facts).toMatchObject({ poolKind: 'apache-httpclient-5', route: truth.route.replace('{}->', ''), width: truth.maxPerRoute, maxTotal: truth.maxTotal, leased: truth.leased, idle: truth.available, pending: truth.pending, waitingThreads: truth.pending });
    expect(r.findings.filter((x) => x.severity !== 'info').map((x) => x.rule)).toEqual(['connection-pool-starvation']);
  });
});

describe('commons-pool2: 3 objects held, 9 borrowers waiting', { timeout: 60_000 }, () => {
  it('counts the waiters from the pool itself and from the stacks', async () => {
    const truth = truthOf('commons-pool2-starvation').objectPool;
    const r = await analyseIncident(join(INCIDENTS, 'commons-pool2-starvation'));
    const [f] = byRule(r.findings, 'connection-pool-starvation');
    expect(f!.facts).toMatchObject({ poolKind: 'commons-pool2', width: truth.maxTotal, leased: truth.active, idle: truth.idle, pending: truth.waiters, waitingThreads: truth.waiters });
    // The threads (not an executor) named like workers are saturated because of the pool.
    expect(byRule(r.findings, 'executor-saturated')[0]!.causedBy).toEqual([f!.id]);
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
    for (const [key, prefix] of [['scheduledPool', 'sched-'], ['eagerPool', 'eager-'], ['arrayBlockingQueuePool', 'abq-']] as const) {
      const t = truth[key];
      const h = heapOf(prefix);
      expect(h, key).toBeDefined();
      expect(h!.object.className, key).toBe(t.class);
      expect(h, key).toMatchObject({ corePoolSize: t.corePoolSize, maximumPoolSize: t.maximumPoolSize, poolSize: t.poolSize, activeWorkers: t.active });
      expect(h!.queue, key).toMatchObject({ className: t.queueClass, size: t.queueSize, capacity: typeof t.queueCapacity === 'number' ? t.queueCapacity : null });
    }
  });

  it('judges them: the full ArrayBlockingQueue is a backlog, the idle scheduled pool is not saturated', () => {
    expect(byRule(r.findings, 'queue-backlog').map((f) => [f.subject, f.severity, f.facts['queueSize'], f.facts['queueCapacity']])).toEqual([['abq', 'error', 5, 5]]);
    expect(byRule(r.findings, 'executor-saturated').map((f) => f.subject).sort()).toEqual(['abq', 'eager']);
  });

  it('finds the semaphore with no permits left and its six waiters, without calling it lock contention', () => {
    const [f] = byRule(r.findings, 'connection-pool-starvation');
    expect(f!.facts).toMatchObject({ poolKind: 'semaphore', idle: truth.semaphore.availablePermits, pending: truth.semaphore.queueLength, waitingThreads: truth.semaphore.waiters.length });
    expect(threadNames(f!).sort()).toEqual([...truth.semaphore.waiters].sort());
    expect(byRule(r.findings, 'lock-contention')).toEqual([]);
  });
});
