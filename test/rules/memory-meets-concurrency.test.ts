/**
 * Memory meets concurrency, on the real-JVM incidents of fixtures/generate-memory-incidents.sh
 * (each truth.json says what the program set up) and on the older incidents as controls: retained
 * bytes of queues, callers parked on futures linked to the OkHttp Dispatcher through the heap, and
 * the memory-leak-suspect rule with its path from a GC root.
 */
import { join } from 'node:path';

import { describe, expect, test } from 'vitest';

import { analysisPlan, loadIncidentInputs } from '../../src/analysis/load-incident.js';
import { resolveConfig } from '../../src/engine/config.js';
import { runRules } from '../../src/engine/run-rules.js';
import { collectInputs } from '../../src/input/collect-inputs.js';
import { buildModel } from '../../src/reconstruct/build-model.js';
import { RULES } from '../../src/rules/index.js';
import { analyseIncident, byRule, INCIDENTS, scratchDir, truthOf } from '../helpers.js';

describe('callers parked on futures of queued OkHttp calls', { timeout: 60_000 }, () => {
  test('each waiting provider thread is linked to the Dispatcher, split as the program set it up', async () => {
    const truth = truthOf<{ facts: Record<string, number> }>('okhttp-callers-waiting').facts;
    const { model, findings } = await analyseIncident(join(INCIDENTS, 'okhttp-callers-waiting'));
    const dispatcher = model.connectionPools.find((p) => p.kind === 'okhttp-dispatcher')!;
    expect(dispatcher.pending).toBe(truth['readyCalls']);
    expect(dispatcher.callersWaiting!.queued).toHaveLength(truth['readyCalls']!);
    expect(dispatcher.callersWaiting!.inFlight).toHaveLength(truth['runningCalls']!);
    // Only the provider's threads wait for calls: no idle worker of another pool is linked.
    const linked = [...dispatcher.callersWaiting!.queued, ...dispatcher.callersWaiting!.inFlight];
    expect(new Set(linked).size).toBe(truth['providerThreads']);
    expect(linked.every((n) => n.startsWith('DubboServerHandler-127.0.0.1:20880-thread-'))).toBe(true);
    // Futures and latches alike.
    expect(truth['callersWaitingOnFuture']! + truth['callersWaitingOnLatch']!).toBe(linked.length);
    const pool = byRule(findings, 'connection-pool-starvation')[0]!;
    expect(pool.message).toContain(`${truth['providerThreads']} threads are parked on a future or latch`);
    const saturated = byRule(findings, 'executor-saturated').find((f) => f.subject.startsWith('DubboServerHandler'))!;
    expect(saturated.causedBy).toContain(pool.id);
    // The waiting callers are the pool finding's evidence, not stuck threads of their own.
    expect(byRule(findings, 'stuck-threads').filter((f) => /StockQuery/.test(f.subject))).toEqual([]);
  });

  test('control: callers that only enqueue and return are not linked', async () => {
    const { model } = await analyseIncident(join(INCIDENTS, 'okhttp-dispatcher-queue'));
    const dispatcher = model.connectionPools.find((p) => p.kind === 'okhttp-dispatcher')!;
    expect(dispatcher.pending).toBeGreaterThan(0);
    expect(dispatcher.callersWaiting).toBeUndefined();
    expect(dispatcher.pendingRetainedBytes).toBeGreaterThan(0);
  });
});

describe('a queue backlog that fills the heap', { timeout: 60_000 }, () => {
  test('the queue carries what it retains, and the leak suspect says it is that backlog', async () => {
    const truth = truthOf<{ facts: Record<string, number> }>('queue-backlog-memory').facts;
    const { model, findings } = await analyseIncident(join(INCIDENTS, 'queue-backlog-memory'));
    const pool = model.executors.find((e) => e.name === 'report-render' && e.heap !== undefined)!;
    expect(pool.heap!.queue.size).toBe(truth['queued']);
    // Each queued task holds its byte[1024] (1,040 bytes with its header) and more: the queue retains at least that.
    expect(pool.heap!.queue.retainedBytes).toBeGreaterThanOrEqual(truth['queued']! * (truth['documentBytes']! + 16));
    const [suspect] = byRule(findings, 'memory-leak-suspect');
    expect(suspect).toBeDefined();
    expect(suspect!.facts['accumulationClass']).toBe('java.util.concurrent.LinkedBlockingQueue$Node');
    expect(suspect!.facts['accumulationChainLinks']).toBeGreaterThanOrEqual(truth['queued']!);
    expect(suspect!.facts['holderKind']).toBe('a queue');
    expect(suspect!.message).toContain('This is the queue of executor "report-render"');
    expect(suspect!.causedBy).toEqual(['queue-backlog:report-render']);
    expect(findings.map((f) => f.id)).toContain('queue-backlog:report-render');
  });
});

describe('memory-leak-suspect', { timeout: 60_000 }, () => {
  test('a static map that nothing empties: where it accumulates, and the static field that keeps it', async () => {
    const truth = truthOf<{ facts: Record<string, number> }>('session-cache-leak').facts;
    const { findings } = await analyseIncident(join(INCIDENTS, 'session-cache-leak'));
    const suspects = byRule(findings, 'memory-leak-suspect');
    expect(suspects).toHaveLength(1);
    const s = suspects[0]!;
    expect(s.facts['accumulationClass']).toBe('java.util.concurrent.ConcurrentHashMap$Node[]');
    expect(s.facts['holderKind']).toBe('a map');
    expect(s.facts['retainedBytes']).toBeGreaterThan(truth['sessions']! * truth['attributeBytes']!);
    expect(s.message).toContain(
      'class com.example.session.SessionCacheLeak$SessionRegistry -> static SESSIONS_BY_ID -> java.util.concurrent.ConcurrentHashMap',
    );
    expect(s.severity).toBe('error');
    // The sessions' attributes are byte arrays the program never wrote: what leaks is also waste, and said so.
    const waste = byRule(findings, 'memory-waste');
    expect(waste).toHaveLength(1);
    expect(waste[0]!.facts['topHolders']).toContain('com.example.session.SessionCacheLeak$Session.attributes');
    // The idle request threads are fine: nothing else is wrong with this JVM.
    expect(findings.filter((f) => f.rule !== 'memory-leak-suspect' && f.rule !== 'memory-waste')).toEqual([]);
  });

  test("controls: small heaps whose 10% shares are the JDK's own (certificates, suffix lists) make no finding", async () => {
    for (const incident of ['healthy-light-load', 'http-pool-starvation', 'okhttp-dispatcher-queue']) {
      const { model, findings } = await analyseIncident(join(INCIDENTS, incident));
      expect(model.memory[0]!.summary!.suspects.length, incident).toBeGreaterThan(0);
      expect(byRule(findings, 'memory-leak-suspect'), incident).toEqual([]);
    }
  });

  test('the retained fixture: below the default size nothing; with the size lowered, the listener list', async () => {
    const { model } = await analyseIncident('fixtures/heap/retained');
    expect(byRule(runRules(model, RULES, resolveConfig(RULES, {}, 'test')), 'memory-leak-suspect')).toEqual([]);
    const lowered = runRules(model, RULES, resolveConfig(RULES, { rules: { 'memory-leak-suspect': ['warning', { minRetainedMB: 0.5 }] } }, 'test'));
    const [s] = byRule(lowered, 'memory-leak-suspect');
    expect(s!.facts['accumulationClass']).toBe('java.lang.Object[]');
    expect(s!.facts['accumulationDominated']).toBe(2000);
    expect((s!.facts['pathFromGcRoot'] as string[]).some((step) => step.startsWith('static LISTENERS -> java.util.ArrayList 0x'))).toBe(true);
  });

  test('--no-memory: no memory analysis, no note', async () => {
    const { threads, heaps, logs } = await loadIncidentInputs(
      await collectInputs([join(INCIDENTS, 'session-cache-leak')]),
      analysisPlan([], { memory: 'never' }),
    );
    const model = buildModel(threads, { heaps, logs });
    expect(model.memory).toEqual([]);
    expect(model.notes.some((n) => /holds its memory/.test(n))).toBe(false);
  });
});

describe('an extract carries the memory summary', { timeout: 60_000 }, () => {
  test('the snapshot of the session leak still yields the leak suspect, without the HPROF', async () => {
    const { extractCommand } = await import('../../src/commands/extract.js');
    const out = join(scratchDir('extract'), 'incident.json.gz');
    const sink = { write: () => true, isTTY: false } as unknown as NodeJS.WriteStream;
    expect(
      await extractCommand(
        join(INCIDENTS, 'session-cache-leak', 'heap.hprof.gz'),
        { output: out, progress: false },
        { stdout: sink, stderr: sink, env: {}, version: 'test' },
      ),
    ).toBe(0);
    const { threads, heaps, logs } = await loadIncidentInputs(
      await collectInputs([out, join(INCIDENTS, 'session-cache-leak', 'dump-3.txt')]),
      analysisPlan([]),
    );
    const model = buildModel(threads, { heaps, logs });
    expect(model.memory[0]!.summary!.suspects[0]!.accumulation.className).toBe('java.util.concurrent.ConcurrentHashMap$Node[]');
    const [s] = byRule(runRules(model, RULES, resolveConfig(RULES, {}, 'test')), 'memory-leak-suspect');
    expect(s!.message).toContain('static SESSIONS_BY_ID');
  });
});

describe('callers of calls in flight', { timeout: 60_000 }, () => {
  test('are not counted as waiting for the pool: they wait for the downstream, like lease holders', async () => {
    const truth = truthOf<{ facts: Record<string, number> }>('okhttp-callers-waiting').facts;
    const { model, findings } = await analyseIncident(join(INCIDENTS, 'okhttp-callers-waiting'));
    const dispatcher = model.connectionPools.find((p) => p.kind === 'okhttp-dispatcher')!;
    const inFlight = new Set(dispatcher.callersWaiting!.inFlight);
    for (const w of dispatcher.waitingThreads) {
      expect(w.threads).toHaveLength(truth['readyCalls']!);
      expect(w.threads.filter((t) => inFlight.has(t.name))).toEqual([]);
    }
    expect(byRule(findings, 'connection-pool-starvation')[0]!.facts['waitingThreads']).toBe(truth['readyCalls']);
  });
});
