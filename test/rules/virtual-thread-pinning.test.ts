/**
 * virtual-thread-pinning on a real JDK 25 JVM (fixtures/generate-runtime-incidents.sh): two virtual
 * threads park inside class initialisers, where they cannot unmount, pinning both carriers of a
 * scheduler of two; 50 virtual threads wait for a carrier. From the text dumps (JDK 25 prints the
 * mounted virtual thread's frames apart; they are read back on top of the carrier's) and from the
 * JSON dump (which lists the waiting virtual threads). Its silence on the other fixture incidents is in test/incidents/expected-rules.test.ts.
 */
import { join } from 'node:path';

import { describe, expect, test } from 'vitest';

import { analyseFiles, analyseIncident, INCIDENTS, truthOf } from '../helpers.js';
import { type Case, check, modelOf, type ThreadSpec } from './build.js';

const DIR = join(INCIDENTS, 'virtual-thread-pinning');
const truth = truthOf('virtual-thread-pinning') as { facts: { carriers: number; pinnedIn: string[]; waitingVirtualThreads: number } };
type Found = { rule: string; severity: string; message: string; facts: Record<string, unknown> };
const pinning = (findings: readonly { rule: string }[]) => findings.filter((f) => f.rule === 'virtual-thread-pinning') as Found[];

describe('virtual-thread-pinning', { timeout: 60_000 }, () => {
  test('from the JSON dump: both carriers pinned by class initialisers, the 50 waiting for a carrier', async () => {
    const [f, ...rest] = pinning((await analyseFiles([join(DIR, 'threads.json')])).findings);
    expect(rest).toEqual([]);
    expect(f!.severity).toBe('error');
    expect(f!.facts).toMatchObject({
      pinned: truth.facts.carriers,
      carriers: truth.facts.carriers,
      pinnedCarriers: truth.facts.carriers,
      waitingForCarrier: truth.facts.waitingVirtualThreads,
    });
    for (const where of truth.facts.pinnedIn) expect(f!.message).toContain(where);
  });

  test("from the JDK 25 text dumps: the carriers carry the pinned virtual threads' frames on top", async () => {
    const { model, findings } = await analyseFiles([join(DIR, 'dump-1.txt')]);
    const carrier = model.dumps[0]!.threads.find((t) => t.carriedVirtualThread !== undefined)!;
    expect(carrier.frames[0]!.qualified).toBe('jdk.internal.misc.Unsafe.park');
    expect(carrier.frames.at(-1)!.qualified).toBe('java.util.concurrent.ForkJoinWorkerThread.run');
    const [f] = pinning(findings);
    expect(f!.facts).toMatchObject({ pinned: truth.facts.carriers, pinnedCarriers: truth.facts.carriers, waitingForCarrier: 0 });
    expect(f!.severity).toBe('error');
  });

  test("the whole incident (text and JSON of one JVM) gives one finding, and the scheduler's pool points at it", async () => {
    const { findings } = await analyseIncident(DIR);
    expect(pinning(findings)).toHaveLength(1);
    expect(findings.filter((x) => x.rule === 'forkjoin-saturated')).toEqual([]);
    const pool = findings.find((x) => x.rule === 'executor-saturated')!;
    expect(pool.subject).toMatch(/^ForkJoinPool-\d+$/);
    expect(pool.causedBy).toContain('virtual-thread-pinning:virtual thread scheduler');
  });
});

const CARRIER_LOOP = [
  'java.lang.VirtualThread.run',
  'java.lang.VirtualThread$VThreadContinuation$1.run',
  'jdk.internal.vm.Continuation.enter0',
  'jdk.internal.vm.Continuation.enter',
  'jdk.internal.vm.Continuation.run',
  'java.lang.VirtualThread.runContinuation',
  'java.util.concurrent.ForkJoinTask.doExec',
  'java.util.concurrent.ForkJoinPool.runWorker',
  'java.util.concurrent.ForkJoinWorkerThread.run',
];
/** A carrier showing its mounted virtual thread parked inside `clinit`, which pins it. */
const pinned = (n: number, clinit: string): ThreadSpec => ({
  name: `ForkJoinPool-1-worker-${n}`,
  state: 'WAITING',
  detail: 'parking',
  carriedVirtualThread: `${20 + n}`,
  frames: [
    'jdk.internal.misc.Unsafe.park(Native Method)',
    'java.lang.VirtualThread.parkOnCarrierThread',
    'java.lang.VirtualThread.park',
    'java.lang.System$1.parkVirtualThread',
    'java.util.concurrent.locks.LockSupport.park',
    'java.util.concurrent.CountDownLatch.await',
    clinit,
    'com.acme.Main.lambda$main$0',
    ...CARRIER_LOOP,
  ],
});
/** A carrier whose virtual thread runs (it will unmount when it blocks). */
const running = (n: number): ThreadSpec => ({
  name: `ForkJoinPool-1-worker-${n}`,
  state: 'RUNNABLE',
  carriedVirtualThread: `${20 + n}`,
  frames: ['com.acme.Prices.compute', ...CARRIER_LOOP],
});

const HAND_BUILT: Case[] = [
  {
    name: 'both carriers pinned by virtual threads parked in class initialisers: no virtual thread can run',
    model: () => modelOf([{ threads: [pinned(1, 'com.acme.Tenants.<clinit>'), pinned(2, 'com.acme.Quotas.<clinit>')] }]),
    expect: [
      {
        subject: 'virtual thread scheduler',
        severity: 'error',
        facts: { pinned: 2, carriers: 2, pinnedCarriers: 2 },
        message: /pinned by a class initialiser \(com.acme.Tenants.<clinit>\)/,
      },
    ],
  },
  {
    name: 'one carrier of two pinned: a warning',
    model: () => modelOf([{ threads: [pinned(1, 'com.acme.Tenants.<clinit>'), running(2)] }]),
    expect: [{ subject: 'virtual thread scheduler', severity: 'warning', facts: { pinned: 1, carriers: 2, pinnedCarriers: 1 } }],
  },
  {
    name: 'negative control: carriers running virtual threads, none parked on its carrier',
    model: () => modelOf([{ threads: [running(1), running(2)] }]),
    expect: [],
  },
];

describe('virtual-thread-pinning: hand-built cases', () => {
  for (const c of HAND_BUILT) test(c.name, () => void check('virtual-thread-pinning', c));
});
