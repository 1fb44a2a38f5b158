/**
 * Threads read from a heap dump (HPROF traces + Thread objects), checked against jstack output of the
 * same JVM: the incident fixtures take their heap dump right after their last jstack dump, and most of
 * them do not move, so every thread must match by name, id, state, flags and frames. Then analysis
 * of a heap dump alone: a leak told from saturation, and a j.u.c. deadlock found.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { loadAnyInput, type LoadedInput } from '../../src/analysis/load-incident.js';
import { ANALYSIS_PLAN } from '../../src/heap/analysis-plan.js';
import { threadStatusToState, virtualThreadStateToState } from '../../src/heap/heap-threads.js';
import type { ThreadEntry } from '../../src/model/thread-dump.js';
import { analyseIncident, INCIDENTS, runCli, scratchDir, truthOf } from '../helpers.js';

type HeapLoaded = Extract<LoadedInput, { kind: 'heap' }>['heap'];
const loadHeap = async (path: string) => ((await loadAnyInput(path, ANALYSIS_PLAN)) as Extract<LoadedInput, { kind: 'heap' }>).heap as HeapLoaded;
const frameTexts = (t: ThreadEntry) => t.frames.map((f) => `${f.qualified}(${f.location})`);

describe('threadStatus (JVMTI bits) to the states jstack prints', () => {
  it.each([
    [0, 'NEW', undefined],
    [0x5, 'RUNNABLE', undefined],
    [0x401, 'BLOCKED', 'on object monitor'],
    [0x191, 'WAITING', 'on object monitor'],
    [0x1a1, 'TIMED_WAITING', 'on object monitor'],
    [0x291, 'WAITING', 'parking'],
    [0x2a1, 'TIMED_WAITING', 'parking'],
    [0xe1, 'TIMED_WAITING', 'sleeping'],
    [0x2, 'TERMINATED', undefined],
  ])('threadStatus %i', (status, state, detail) => {
    expect(threadStatusToState(status)).toEqual(detail === undefined ? { state } : { state, detail });
  });
});

// These move between dumps (connections change hands every 2 s, calls start and end): threads differ from the last jstack.
const MOVING = new Set(['http-pool-starvation', 'httpclient5-starvation', 'okhttp-dispatcher-queue']);
const withHeap = readdirSync(INCIDENTS).filter((d) => existsSync(join(INCIDENTS, d, 'heap.hprof.gz')));

describe('threads of the heap dump equal the last jstack dump of the same JVM', { timeout: 120_000 }, () => {
  it.each(withHeap)('%s', async (incident) => {
    const dir = join(INCIDENTS, incident);
    const heap = await loadHeap(join(dir, 'heap.hprof.gz'));
    const last = readdirSync(dir)
      .filter((f) => /^dump-\d+\.txt$/.test(f))
      .sort()
      .pop()!;
    const jstack = ((await loadAnyInput(join(dir, last), ANALYSIS_PLAN)) as Extract<LoadedInput, { kind: 'threads' }>).input.file.dumps[0]!;
    const fromHeap = heap.stacks!.dumps[0]!;
    expect(fromHeap.format).toBe('hprof');
    const byName = new Map(jstack.threads.map((t) => [t.name, t]));
    // OkHttp names every thread that runs a call to a host alike: those are told apart by their Java id.
    const repeated = new Set(jstack.threads.filter((t, i) => jstack.threads.findIndex((x) => x.name === t.name) !== i).map((t) => t.name));
    const heapNames = new Set(fromHeap.threads.map((t) => t.name));
    if (MOVING.has(incident)) {
      // Calls finish and start between the two dumps: only most names can be expected in both.
      expect(fromHeap.threads.filter((t) => byName.has(t.name)).length).toBeGreaterThan(fromHeap.threads.length * 0.7);
      return;
    }
    for (const t of fromHeap.threads) {
      // `main` drives the fixture (it polls for the script between the dumps), so it may be elsewhere.
      if (t.name === 'main') continue;
      const j = repeated.has(t.name) ? jstack.threads.find((x) => x.name === t.name && x.javaId === t.javaId) : byName.get(t.name);
      expect(j, t.name).toBeDefined();
      expect([t.javaId, t.daemon, t.priority, t.state, t.stateDetail], t.name).toEqual([j!.javaId, j!.daemon, j!.priority, j!.state, j!.stateDetail]);
      expect(frameTexts(t), t.name).toEqual(frameTexts(j!));
    }
    // The Java threads jstack shows and the heap dump does not are the JVM's hidden ones (compiler,
    // service, sweeper threads: no Java frames), and HikariCP's connection adder, which ends when idle.
    const onlyInJstack = jstack.threads.filter((t) => !heapNames.has(t.name));
    expect(onlyInJstack.filter((t) => t.frames.length > 0 && !/ connection adder$/.test(t.name)).map((t) => t.name)).toEqual([]);
    expect(fromHeap.threads.length).toBeGreaterThan(jstack.threads.length / 2);
  });
});

describe('heap dumps of every JDK: thread objects and traces', { timeout: 60_000 }, () => {
  it('JDK 17 and 25 (states in Thread.holder since JDK 19): every thread has a known state and main has its stack', async () => {
    for (const jdk of ['jdk17', 'jdk25']) {
      const threads = (await loadHeap(`fixtures/heap/${jdk}/heap.hprof.gz`)).stacks!.dumps[0]!.threads;
      expect(
        threads.filter((t) => t.state === 'UNKNOWN').map((t) => t.name),
        jdk,
      ).toEqual([]);
      const main = threads.find((t) => t.name === 'main')!;
      expect(main.state, jdk).toBe('TIMED_WAITING');
      expect(main.stateDetail, jdk).toBe('sleeping');
      expect(
        frameTexts(main).some((f) => f.startsWith('FixtureSupport.sleepForever(FixtureSupport.java:')),
        jdk,
      ).toBe(true);
    }
  });

  it('JDK 25 virtual threads: the state Thread.getState() gave, from VirtualThread.state; parked ones name the lock and its owner', async () => {
    const truth = JSON.parse(readFileSync('fixtures/heap-virtual/truth.json', 'utf8'));
    const threads = (await loadHeap('fixtures/heap-virtual/heap.hprof.gz')).stacks!.dumps[0]!.threads;
    const virtual = threads.filter((t) => t.virtual);
    expect(Object.fromEntries(virtual.map((t) => [t.name, t.state]))).toEqual(truth.virtualThreads);
    const owner = threads.find((t) => t.name === truth.lockOwner)!;
    expect(owner.virtual).toBe(false);
    for (const t of virtual.filter((v) => v.name.startsWith('vt-lock-'))) {
      const lock = t.locks.find((l) => l.kind === 'parking')!.lock!;
      expect(lock.className).toBe('java.util.concurrent.locks.ReentrantLock$NonfairSync');
      expect(owner.ownableSynchronizers.map((l) => l.id)).toContain(lock.id);
    }
    // Every virtual thread has its stack, down to the continuation it runs in.
    for (const t of virtual)
      expect(
        t.frames.some((f) => f.qualified === 'java.lang.VirtualThread.run'),
        t.name,
      ).toBe(true);
  });

  it.each([
    [0, 'NEW'],
    [2, 'RUNNABLE'],
    [4, 'WAITING'],
    [7, 'TIMED_WAITING'],
    [13, 'BLOCKED'],
    [16, 'WAITING'],
    [18, 'TIMED_WAITING'],
    [99, 'TERMINATED'],
    [4 | 256, 'WAITING'],
    [1234, 'UNKNOWN'],
  ])('VirtualThread.state %i is %s', (raw, state) => {
    expect(virtualThreadStateToState(raw).state).toBe(state);
  });

  it('an extract keeps the stacks', async () => {
    const out = join(scratchDir('heap-threads'), 'x.json.gz');
    const r = await runCli(['extract', join(INCIDENTS, 'heap-deadlock', 'heap.hprof.gz'), '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    const fromExtract = (await loadHeap(out)).stacks!.dumps[0]!.threads;
    const fromHprof = (await loadHeap(join(INCIDENTS, 'heap-deadlock', 'heap.hprof.gz'))).stacks!.dumps[0]!.threads;
    expect(fromExtract.map((t) => [t.name, t.state, frameTexts(t)])).toEqual(fromHprof.map((t) => [t.name, t.state, frameTexts(t)]));
  });
});

describe('a heap dump alone', { timeout: 60_000 }, () => {
  const onlyHeap = async (incident: string) => {
    const dir = scratchDir('heap-only');
    const { copyFileSync } = await import('node:fs');
    copyFileSync(join(INCIDENTS, incident, 'heap.hprof.gz'), join(dir, 'heap.hprof.gz'));
    return analyseIncident(dir);
  };

  it('tells the leak (nobody inside) from saturation (everyone inside), with a note on where the threads came from', async () => {
    const leak = await onlyHeap('dubbo3-active-count-leak');
    expect(leak.findings.map((f) => f.rule)).toEqual(['active-count-leak']);
    expect(leak.findings[0]!.facts).toMatchObject({ active: 16, limit: 16, executingThreads: 0 });
    expect(leak.model.notes.some((n) => n.startsWith('no thread dump given: the threads are those recorded in the heap dump'))).toBe(true);
    const truth = truthOf('dubbo26-limit-saturated').counter;
    const saturated = await onlyHeap('dubbo26-limit-saturated');
    expect(saturated.findings.map((f) => f.rule)).toEqual(['limit-saturated']);
    expect(saturated.findings[0]!.facts).toMatchObject({ active: truth.methodActive, executingThreads: truth.threadsInside });
  });

  it('finds the ReentrantLock deadlock through parkBlocker and exclusiveOwnerThread; the monitor one needs jstack', async () => {
    const truth = truthOf('heap-deadlock');
    const heapOnly = await onlyHeap('heap-deadlock');
    const deadlocks = heapOnly.findings.filter((f) => f.rule === 'deadlock');
    expect(deadlocks.map((f) => f.facts['threads'])).toEqual([truth.jucDeadlock.threads]);
    expect(deadlocks[0]!.facts['lockClasses']).toEqual([truth.jucDeadlock.lockClass, truth.jucDeadlock.lockClass]);
    // A heap dump carries no JVM deadlock report, so the finding does not say the JVM missed it.
    expect(deadlocks[0]!.message).not.toMatch(/did not report/);
    // Negative control: the audits are BLOCKED, but a heap dump does not say on what.
    const audits = heapOnly.model.dumps[0]!.threads.filter((t) => t.name.startsWith('audit-'));
    expect(audits.map((t) => [t.state, t.locks.length])).toEqual([
      ['BLOCKED', 0],
      ['BLOCKED', 0],
    ]);
    const withJstack = await analyseIncident(join(INCIDENTS, 'heap-deadlock'));
    const jstackCycles = withJstack.findings
      .filter((f) => f.rule === 'deadlock' && f.facts['reportedByJvm'] === true)
      .map((f) => [...(f.facts['threads'] as string[])].sort());
    expect(jstackCycles).toContainEqual([...truth.monitorDeadlock.threads].sort());
    expect(jstackCycles).toContainEqual([...truth.jucDeadlock.threads].sort());
  });
});
