/**
 * finalizer-backlog on a real JVM (fixtures/generate-runtime-incidents.sh): the Finalizer thread
 * BLOCKED in a finalize() on a lock another thread holds, 60,000 objects queued behind it, counted
 * in the heap dump; from the thread dumps alone the blocked thread is still found (the other
 * incidents, whose queues are short: test/incidents/expected-rules.test.ts).
 */
import { join } from 'node:path';

import { describe, expect, test } from 'vitest';

import { analyseIncident, INCIDENTS, truthOf } from '../helpers.js';
import { type Case, check, modelOf, type ThreadSpec } from './build.js';

const DIR = join(INCIDENTS, 'finalizer-backlog');
const truth = truthOf('finalizer-backlog') as { facts: { queuedAtLeast: number; finalizeMethod: string; lockHolder: string } };
type Found = { rule: string; severity: string; facts: Record<string, unknown> };
const backlog = (findings: readonly { rule: string }[]) => findings.filter((f) => f.rule === 'finalizer-backlog') as Found[];

describe('finalizer-backlog', { timeout: 60_000 }, () => {
  test("with the heap: the blocked Finalizer, its lock's holder, and the queue's length (error)", async () => {
    const [f, ...rest] = backlog((await analyseIncident(DIR)).findings);
    expect(rest).toEqual([]);
    expect(f!.severity).toBe('error');
    expect(f!.facts['finalizeMethod']).toBe(truth.facts.finalizeMethod);
    expect(f!.facts['lockHolder']).toBe(truth.facts.lockHolder);
    expect(f!.facts['queueLength'] as number).toBeGreaterThanOrEqual(truth.facts.queuedAtLeast);
  });

  test('from the thread dumps alone: the blocked Finalizer (warning), the queue unknown', async () => {
    const [f] = backlog((await analyseIncident(DIR, { threadsOnly: true })).findings);
    expect(f!.severity).toBe('warning');
    expect(f!.facts['sameInEveryDump']).toBe(true);
    expect(f!.facts['queueLength']).toBeNull();
  });
});

const FINALIZER_FRAMES = [
  'java.lang.ref.Finalizer.invokeFinalizeMethod(Native Method)',
  'java.lang.ref.Finalizer.runFinalizer',
  'java.lang.ref.Finalizer$FinalizerThread.run',
];
const finalizer = (over: Partial<ThreadSpec> = {}): ThreadSpec => ({
  name: 'Finalizer',
  daemon: true,
  state: 'BLOCKED',
  detail: 'on object monitor',
  frames: ['com.acme.ImageBuffer.finalize', ...FINALIZER_FRAMES],
  locks: [{ at: 0, kind: 'waiting-to-lock', id: '0x10', className: 'com.acme.ImageCache' }],
  ...over,
});
const holder: ThreadSpec = {
  name: 'cache-flusher',
  state: 'TIMED_WAITING',
  detail: 'sleeping',
  frames: ['java.lang.Thread.sleep', 'com.acme.ImageCache.flush'],
  locks: [{ at: 1, kind: 'locked', id: '0x10', className: 'com.acme.ImageCache' }],
};
const idleFinalizer = finalizer({
  state: 'WAITING',
  detail: 'on object monitor',
  locks: [],
  frames: [
    'java.lang.Object.wait(Native Method)',
    'java.lang.ref.ReferenceQueue.remove',
    'java.lang.ref.ReferenceQueue.remove',
    'java.lang.ref.Finalizer$FinalizerThread.run',
  ],
});
const queue = (queueLength: number) => ({
  finalizerQueues: [{ input: 'heap.hprof', queueLength, queueId: '0x20', className: 'java.lang.ref.ReferenceQueue' }],
});

const HAND_BUILT: Case[] = [
  {
    name: 'the Finalizer blocked in a finalize() on a lock another thread holds (warning)',
    model: () => modelOf([{ threads: [finalizer(), holder] }]),
    expect: [
      { subject: 'Finalizer', severity: 'warning', facts: { finalizeMethod: 'com.acme.ImageBuffer.finalize', lockHolder: 'cache-flusher', queueLength: null } },
    ],
  },
  {
    name: 'blocked, with 60,000 objects queued behind it: an error',
    model: () => modelOf([{ threads: [finalizer(), holder] }], () => queue(60_000)),
    expect: [{ subject: 'Finalizer', severity: 'error', facts: { queueLength: 60_000 } }],
  },
  {
    name: 'an idle Finalizer with a long queue: the queue alone',
    model: () => modelOf([{ threads: [idleFinalizer] }], () => queue(20_000)),
    expect: [{ subject: 'Finalizer', severity: 'warning', facts: { held: null, queueLength: 20_000 } }],
  },
  { name: 'negative control: an idle Finalizer and a short queue', model: () => modelOf([{ threads: [idleFinalizer] }], () => queue(12)), expect: [] },
];

describe('finalizer-backlog: hand-built cases', () => {
  for (const c of HAND_BUILT) test(c.name, () => void check('finalizer-backlog', c));
});
