/**
 * Which threads are a pool (src/threads/thread-pools.ts), on hand-built dumps: threads running one
 * executor's worker loop are; one thread never is; look-alike threads (one name stem, one run
 * method, no known loop) are only when they take work from one queue. Each negative control is a
 * look-alike that is not an executor: a lone factory-named worker, a handler thread per tab with a
 * queue of its own, threads that nap in their loop, the JDK's `Thread-N` names.
 */
import { describe, expect, test } from 'vitest';

import type { Model } from '../../src/model/model.js';
import { check, idlePoolWorker, inPoolWorker, many, modelOf, type ThreadSpec } from '../rules/build.js';

const pools = (m: Model) => m.executors.map((e) => ({ name: e.name, workers: e.workers, real: e.namedLikePool }));

const busyTask = (): Omit<ThreadSpec, 'name'> => ({
  state: 'TIMED_WAITING',
  detail: 'sleeping',
  frames: inPoolWorker('java.lang.Thread.sleep', 'com.acme.Jobs.build'),
});

/** A look-alike worker of `run` idle in a JDK queue's take, parked on the queue's condition `queueId`. */
const takingFrom =
  (queueId: (i: number) => string, run = 'com.acme.Handler.run') =>
  (_name: string, i: number): Omit<ThreadSpec, 'name'> => ({
    state: 'WAITING',
    detail: 'parking',
    frames: [
      'jdk.internal.misc.Unsafe.park(Native Method)',
      'java.util.concurrent.locks.LockSupport.park',
      'java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await',
      'java.util.concurrent.LinkedBlockingQueue.take',
      run,
      'java.lang.Thread.run',
    ],
    locks: [{ at: 0, kind: 'parking', id: queueId(i), className: 'java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject' }],
  });

/** A look-alike busy in its work. */
const handling =
  (run = 'com.acme.Handler.run') =>
  (): Omit<ThreadSpec, 'name'> => ({
    state: 'RUNNABLE',
    frames: ['com.acme.Codec.encode', 'com.acme.Handler.handle', run, 'java.lang.Thread.run'],
  });

describe('a pool is an executor, not a name', () => {
  test('negative control: one factory-named worker alone is no pool, and makes no saturation even with minWorkers 1', () => {
    const m = modelOf([{ threads: many(1, 'pool-7-thread-', busyTask) }]);
    expect(pools(m)).toEqual([]);
    check('executor-saturated', { name: 'lone worker', model: () => m, options: { minWorkers: 1 }, expect: [] });
  });

  test('negative control: a lone boss thread running a pool loop is no pool', () => {
    const m = modelOf([
      {
        threads: [
          { name: 'boss-1-thread-1', ...busyTask() },
          { name: 'worker-2-thread-1', ...idlePoolWorker },
        ],
      },
    ]);
    expect(pools(m)).toEqual([]);
  });

  test('two workers of one executor are a pool', () => {
    const m = modelOf([{ threads: [...many(2, 'pool-3-thread-', busyTask), { name: 'pool-3-thread-3', ...idlePoolWorker }] }]);
    expect(pools(m)).toEqual([{ name: 'pool-3', workers: 3, real: true }]);
  });

  test('look-alikes that take work from one queue are an executor', () => {
    const m = modelOf([
      {
        threads: [
          { name: 'dispatch-1', ...handling()() },
          ...many(
            2,
            'dispatch-',
            takingFrom(() => '0x100'),
          ).map((t, i) => ({ ...t, name: `dispatch-${i + 2}` })),
        ],
      },
    ]);
    expect(pools(m)).toEqual([{ name: 'dispatch', workers: 3, real: true }]);
  });

  test('negative control: handler threads each with a queue of their own are no executor', () => {
    const m = modelOf([
      {
        threads: [
          { name: 'tab-handler-1', ...handling()() },
          ...many(
            3,
            'tab-handler-',
            takingFrom((k) => `0x${200 + k}`),
          ).map((t, i) => ({ ...t, name: `tab-handler-${i + 2}` })),
        ],
      },
    ]);
    const handlers = pools(m);
    expect(handlers.map((p) => p.real)).toEqual([false]);
    check('executor-saturated', { name: 'handlers', model: () => m, expect: [] });
  });

  test('negative control: look-alikes that nap in their loop take no work from anywhere', () => {
    const napping = (): Omit<ThreadSpec, 'name'> => ({
      state: 'TIMED_WAITING',
      detail: 'sleeping',
      frames: ['java.lang.Thread.sleep', 'com.acme.Poller.run', 'java.lang.Thread.run'],
    });
    const m = modelOf([{ threads: [...many(3, 'poller-', napping), { name: 'poller-4', ...handling('com.acme.Poller.run')() }] }]);
    expect(pools(m).map((p) => p.real)).toEqual([false]);
  });

  test("workers handed their work on their own thread object are a pool (the wait object printed only as 'locked', as JDK 7 does)", () => {
    const handOff = (_n: string, i: number): Omit<ThreadSpec, 'name'> => ({
      state: 'WAITING',
      detail: 'on object monitor',
      frames: ['java.lang.Object.wait', 'java.lang.Object.wait', 'com.acme.pool.PoolableThread.returnToPool', 'com.acme.pool.PoolableThread.run'],
      locks: [{ at: 2, kind: 'locked', id: `0x${300 + i}`, className: 'com.acme.pool.PoolableThread' }],
    });
    const m = modelOf([{ threads: many(4, 'PooledThread-', handOff) }]);
    expect(pools(m)).toEqual([{ name: 'PooledThread', workers: 4, real: true }]);
  });

  test("a scheduler's own queue (a take of a class named for a queue) is a queue", () => {
    const worker = (): Omit<ThreadSpec, 'name'> => ({
      state: 'TIMED_WAITING',
      detail: 'parking',
      frames: [
        'jdk.internal.misc.Unsafe.park(Native Method)',
        'java.util.concurrent.locks.LockSupport.parkNanos',
        'java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await',
        'com.acme.scheduler.SchedulerQueueImpl.take',
        'com.acme.scheduler.QueueWorker.run',
        'java.lang.Thread.run',
      ],
      locks: [{ at: 0, kind: 'parking', id: '0x400', className: 'java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject' }],
    });
    const m = modelOf([{ threads: many(3, 'scheduler-', worker) }]);
    expect(pools(m)).toEqual([{ name: 'scheduler', workers: 3, real: true }]);
  });

  test("ThreadPoolExecutor workers with the JDK's default names are one executor only when those waiting for work wait on one queue", () => {
    const idleOn = (id: string): Omit<ThreadSpec, 'name'> => ({
      ...idlePoolWorker,
      locks: [{ at: 0, kind: 'parking', id, className: 'java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject' }],
    });
    const allBusy = modelOf([{ threads: many(3, 'Thread-', busyTask) }]);
    expect(pools(allBusy)).toEqual([{ name: 'Thread', workers: 3, real: false }]);
    check('executor-saturated', { name: 'Thread-N busy', model: () => allBusy, expect: [] });
    const oneQueue = modelOf([
      { threads: [...many(2, 'Thread-', busyTask), { name: 'Thread-3', ...idleOn('0x600') }, { name: 'Thread-4', ...idleOn('0x600') }] },
    ]);
    expect(pools(oneQueue)).toEqual([{ name: 'Thread', workers: 4, real: true }]);
    const twoQueues = modelOf([
      { threads: [...many(2, 'Thread-', busyTask), { name: 'Thread-3', ...idleOn('0x600') }, { name: 'Thread-4', ...idleOn('0x700') }] },
    ]);
    expect(pools(twoQueues)).toEqual([{ name: 'Thread', workers: 4, real: false }]);
  });

  test("negative control: the JDK's default names (Thread-N) say nothing, even with one run method", () => {
    const m = modelOf([
      {
        threads: many(
          4,
          'Thread-',
          takingFrom(() => '0x500'),
        ),
      },
    ]);
    expect(pools(m)).toEqual([]);
  });
});
