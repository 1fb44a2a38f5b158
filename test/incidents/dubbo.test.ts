/**
 * Incidents 2 and 3 and their negative controls, from real JVMs running minimal classes with Dubbo's
 * real names (fixtures/incidents, made by fixtures/generate-incidents-dubbo.sh).
 */
import { join } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import type { Finding } from '../../src/model/findings.js';
import { severityRank } from '../../src/model/findings.js';
import type { Model } from '../../src/model/model.js';
import { analyseIncident, byRule, INCIDENTS, truthOf } from '../helpers.js';

const atOrAbove = (findings: Finding[], s: Finding['severity']) => findings.filter((f) => severityRank(f.severity) >= severityRank(s));

describe('incident 3: the executes limit hit with nobody working (active-count leak)', { timeout: 60_000 }, () => {
  const truth = truthOf('active-count-leak');
  let r: { model: Model; findings: Finding[] };
  beforeAll(async () => {
    r = await analyseIncident(join(INCIDENTS, 'active-count-leak'));
  });

  it('says the counter leaked, with the numbers, the limit source and the rejections', () => {
    const leaks = byRule(r.findings, 'active-count-leak');
    expect(leaks).toHaveLength(1);
    const f = leaks[0]!;
    expect(f.subject).toBe(`${truth.service.interface}#${truth.service.method}`);
    expect(f.severity).toBe('critical');
    expect(f.facts).toMatchObject({
      active: truth.active,
      limit: truth.limit.value,
      limitSource: `URL parameter ${truth.limit.source}`,
      executingThreads: truth.threadsInsideMethod,
      leaked: truth.active - truth.threadsInsideMethod,
      rejectionsLogged: truth.rejections.loggedInAppLog,
      identity: truth.service.identity,
    });
    expect(f.evidence.some((e) => e.kind === 'heap-object' && e.className === 'org.apache.dubbo.rpc.RpcStatus')).toBe(true);
    expect(f.evidence.some((e) => e.kind === 'log')).toBe(true);
  });

  it('makes one finding of it: not saturation, and the service-wide counter is a fact, not a second finding', () => {
    expect(byRule(r.findings, 'limit-saturated')).toEqual([]);
    expect(r.findings.filter((f) => f.subject.startsWith(truth.service.interface))).toHaveLength(1);
    expect(atOrAbove(r.findings, 'warning').map((f) => f.rule)).toEqual(['active-count-leak']);
  });

  it('threads only: no leak claimed (the counter is in the heap), and a note saying so', async () => {
    const t = await analyseIncident(join(INCIDENTS, 'active-count-leak'), { threadsOnly: true });
    expect(byRule(t.findings, 'active-count-leak')).toEqual([]);
    expect(t.model.notes.join('\n')).toMatch(/RpcStatus/);
  });
});

describe('negative control: the limit reached with the threads really inside (saturation)', { timeout: 60_000 }, () => {
  const truth = truthOf('limit-saturated');
  it('says saturation with the method-specific limit, never a leak', async () => {
    const r = await analyseIncident(join(INCIDENTS, 'limit-saturated'));
    expect(byRule(r.findings, 'active-count-leak')).toEqual([]);
    const [f] = byRule(r.findings, 'limit-saturated');
    expect(f).toBeDefined();
    expect(f!.facts).toMatchObject({
      active: truth.active,
      limit: truth.limit.value,
      limitSource: `URL parameter ${truth.limit.source}`,
      executingThreads: truth.threadsInsideMethod,
      rejectionsLogged: truth.rejections.loggedInAppLog,
    });
    // The 32 threads inside are this finding's evidence, not stuck threads of their own.
    expect(byRule(r.findings, 'stuck-threads')).toEqual([]);
  });
});

describe('incident 2: the shutdown hooks race', { timeout: 60_000 }, () => {
  const truth = truthOf('shutdown-ordering');
  it('names both hooks, what each does, and the requests in flight, once', async () => {
    for (const threadsOnly of [false, true]) {
      const r = await analyseIncident(join(INCIDENTS, 'shutdown-ordering'), { threadsOnly });
      const found = byRule(r.findings, 'shutdown-ordering');
      expect(found).toHaveLength(1);
      const f = found[0]!;
      const dubbo = truth.hooks.find((h: { owner: string }) => h.owner === 'Dubbo');
      const spring = truth.hooks.find((h: { owner: string }) => h.owner === 'Spring');
      expect(f.facts).toMatchObject({ dubboHook: dubbo.thread, springHook: spring.thread, requestsInFlight: truth.inFlightRequests.length });
      expect(String(f.facts['dubboHookDoing'])).toContain('HeaderExchangeServer.close');
      expect(String(f.facts['springHookDoing'])).toContain(spring.topFrames[1]);
      const inFlight = f.evidence.filter((e) => e.note === 'request in flight').map((e) => (e as { thread: string }).thread);
      expect(inFlight.sort()).toEqual(truth.inFlightRequests.map((x: { thread: string }) => x.thread).sort());
      // The pool that can still start workers is not saturated, and the hooks are not stuck threads.
      expect(byRule(r.findings, 'stuck-threads')).toEqual([]);
      if (!threadsOnly) expect(byRule(r.findings, 'executor-saturated')).toEqual([]);
    }
  });
});

describe('negative control: a busy pool draining a burst', { timeout: 60_000 }, () => {
  it('raises nothing at warning or above when the heap shows the queue', async () => {
    const r = await analyseIncident(join(INCIDENTS, 'draining-pool'));
    expect(atOrAbove(r.findings, 'warning').map((f) => f.id)).toEqual([]);
    const pool = r.model.executors.find((e) => e.heap !== undefined);
    expect(pool?.heap?.queue.capacity).toBe(1000);
  });
});
