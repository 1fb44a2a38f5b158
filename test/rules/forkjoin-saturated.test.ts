/**
 * forkjoin-saturated on a real JVM (fixtures/generate-runtime-incidents.sh): remote calls in a
 * parallel stream and in supplyAsync without an executor block every common-pool worker; a
 * ForkJoinPool busy computing is the control. Its silence on the other fixture incidents is in test/incidents/expected-rules.test.ts.
 */
import { join } from 'node:path';

import { describe, expect, test } from 'vitest';

import { analyseIncident, INCIDENTS, truthOf } from '../helpers.js';
import { type Case, check, many, modelOf, type ThreadSpec } from './build.js';

const DIR = join(INCIDENTS, 'forkjoin-common-pool-blocked');
const truth = truthOf('forkjoin-common-pool-blocked') as { facts: { pool: string; parallelism: number; blockedIn: string; control: string } };
type Found = { rule: string; subject: string; severity: string; message: string; facts: Record<string, unknown>; causedBy: string[] };
const fj = (findings: readonly { rule: string }[]) => findings.filter((f) => f.rule === 'forkjoin-saturated') as Found[];

describe('forkjoin-saturated', { timeout: 60_000 }, () => {
  test("the common pool's blocked workers, what they block in, its caller; not the computing pool", async () => {
    const { findings } = await analyseIncident(DIR);
    const found = fj(findings);
    expect(found.map((f) => f.subject)).toEqual([truth.facts.pool]);
    const f = found[0]!;
    expect(f.severity).toBe('error');
    expect(f.facts['workers']).toBe(truth.facts.parallelism);
    expect(f.facts['blocked']).toBe(truth.facts.parallelism);
    expect(f.message).toContain(truth.facts.blockedIn);
    // The executor-saturated finding of the same pool points at it.
    expect(findings.find((x) => x.rule === 'executor-saturated' && x.subject === truth.facts.pool)?.causedBy).toContain(
      `forkjoin-saturated:${truth.facts.pool}`,
    );
    expect(JSON.stringify(found)).not.toContain(truth.facts.control);
  });
});

const FJ_LOOP = [
  'java.util.concurrent.ForkJoinTask.doExec',
  'java.util.concurrent.ForkJoinPool$WorkQueue.topLevelExec',
  'java.util.concurrent.ForkJoinPool.runWorker',
  'java.util.concurrent.ForkJoinWorkerThread.run',
];
const reading = (): Omit<ThreadSpec, 'name'> => ({
  state: 'RUNNABLE',
  frames: [
    'sun.nio.ch.SocketDispatcher.read0(Native Method)',
    'sun.nio.ch.NioSocketImpl.read',
    'java.net.Socket$SocketInputStream.read',
    'com.acme.Catalog.price',
    ...FJ_LOOP,
  ],
});
const computing = (): Omit<ThreadSpec, 'name'> => ({ state: 'RUNNABLE', frames: ['com.acme.Matrix.multiply', 'com.acme.Matrix.fold', ...FJ_LOOP] });
const idleWorker = (): Omit<ThreadSpec, 'name'> => ({
  state: 'WAITING',
  detail: 'parking',
  frames: [
    'jdk.internal.misc.Unsafe.park(Native Method)',
    'java.util.concurrent.locks.LockSupport.park',
    'java.util.concurrent.ForkJoinPool.awaitWork',
    'java.util.concurrent.ForkJoinPool.runWorker',
    'java.util.concurrent.ForkJoinWorkerThread.run',
  ],
});

const HAND_BUILT: Case[] = [
  {
    name: 'every common-pool worker in a socket read inside its task',
    model: () => modelOf([{ threads: many(4, 'ForkJoinPool.commonPool-worker-', reading) }]),
    expect: [{ subject: 'ForkJoinPool.commonPool', severity: 'error', facts: { workers: 4, blocked: 4 }, message: /com.acme.Catalog.price/ }],
  },
  { name: 'negative control: every worker busy computing', model: () => modelOf([{ threads: many(4, 'ForkJoinPool-1-worker-', computing) }]), expect: [] },
  {
    name: 'negative control: one worker idle',
    model: () =>
      modelOf([{ threads: [...many(3, 'ForkJoinPool.commonPool-worker-', reading), { name: 'ForkJoinPool.commonPool-worker-4', ...idleWorker() }] }]),
    expect: [],
  },
];

/** A caller outside any pool waiting for a CompletableFuture (whichever executor completes it). */
const futureCaller = (): Omit<ThreadSpec, 'name'> => ({
  state: 'WAITING',
  detail: 'parking',
  frames: [
    'jdk.internal.misc.Unsafe.park(Native Method)',
    'java.util.concurrent.locks.LockSupport.park',
    'java.util.concurrent.CompletableFuture$Signaller.block',
    'java.util.concurrent.ForkJoinPool.managedBlock',
    'java.util.concurrent.CompletableFuture.waitingGet',
    'java.util.concurrent.CompletableFuture.get',
    'com.acme.Web.quote',
    'java.lang.Thread.run',
  ],
});
/** A parallel stream's caller, outside any pool: its tasks run on the common pool. */
const streamCaller = (): Omit<ThreadSpec, 'name'> => ({
  state: 'WAITING',
  detail: 'parking',
  frames: [
    'jdk.internal.misc.Unsafe.park(Native Method)',
    'java.util.concurrent.locks.LockSupport.park',
    'java.util.concurrent.ForkJoinTask.awaitDone',
    'java.util.concurrent.ForkJoinTask.join',
    'java.util.stream.AbstractTask.compute',
    'java.util.concurrent.ForkJoinTask.invoke',
    'java.util.stream.ReduceOps$ReduceOp.evaluateParallel',
    'com.acme.Web.prices',
    'java.lang.Thread.run',
  ],
});
/** A caller that handed its task to a pool by name (ForkJoinPool.invoke): which pool, the dump does not say. */
const namedPoolCaller = (): Omit<ThreadSpec, 'name'> => ({
  state: 'WAITING',
  detail: 'parking',
  frames: [
    'jdk.internal.misc.Unsafe.park(Native Method)',
    'java.util.concurrent.locks.LockSupport.park',
    'java.util.concurrent.ForkJoinTask.awaitDone',
    'java.util.concurrent.ForkJoinTask.join',
    'java.util.concurrent.ForkJoinPool.invoke',
    'com.acme.Report.run',
    'java.lang.Thread.run',
  ],
});

const CALLERS: Case[] = [
  {
    name: "a parallel stream's caller waits for the common pool",
    model: () => modelOf([{ threads: [...many(4, 'ForkJoinPool.commonPool-worker-', reading), { name: 'web-1', ...streamCaller() }] }]),
    expect: [{ subject: 'ForkJoinPool.commonPool', facts: { callers: ['web-1'] }, message: /1 thread waits for the pool \("web-1"\)/ }],
  },
  {
    name: 'callers parked on CompletableFutures count against no pool: another executor may complete them',
    model: () => modelOf([{ threads: [...many(4, 'ForkJoinPool.commonPool-worker-', reading), ...many(3, 'web-', futureCaller)] }]),
    expect: [{ subject: 'ForkJoinPool.commonPool', facts: { callers: [] } }],
  },
  {
    name: 'a task handed to a pool by name counts against that pool only when the dump has no other',
    model: () =>
      modelOf([
        {
          threads: [
            ...many(4, 'ForkJoinPool.commonPool-worker-', reading),
            ...many(2, 'ForkJoinPool-1-worker-', reading),
            { name: 'report-1', ...namedPoolCaller() },
          ],
        },
      ]),
    expect: [
      { subject: 'ForkJoinPool.commonPool', facts: { callers: [] } },
      { subject: 'ForkJoinPool-1', facts: { callers: [] } },
    ],
  },
  {
    name: 'the same caller with one pool in the dump waits for that pool',
    model: () => modelOf([{ threads: [...many(2, 'ForkJoinPool-1-worker-', reading), { name: 'report-1', ...namedPoolCaller() }] }]),
    expect: [{ subject: 'ForkJoinPool-1', facts: { callers: ['report-1'] } }],
  },
];

describe('forkjoin-saturated: callers count against the pool that runs their task, when the dump shows it', () => {
  for (const c of CALLERS) test(c.name, () => void check('forkjoin-saturated', c));
});

describe('forkjoin-saturated: hand-built cases', () => {
  for (const c of HAND_BUILT) test(c.name, () => void check('forkjoin-saturated', c));
});
