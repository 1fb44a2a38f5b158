/**
 * active-count-leak: hand-built counters (at the limit with nobody inside: critical; near it: error;
 * and the controls: the threads really inside, no thread dump of the JVM, far from the limit). The
 * real JVMs' leaks (Dubbo 2.7 and 3) are checked in test/incidents/dubbo.test.ts and more-pools.test.ts.
 */
import { describe, test } from 'vitest';

import { type Case, check, counter, inPoolWorker, many, modelOf, refs } from './build.js';

const inside = (n: number) =>
  many(n, 'DubboServerHandler-127.0.0.1:20880-thread-', () => ({
    state: 'TIMED_WAITING',
    detail: 'sleeping',
    frames: inPoolWorker('java.lang.Thread.sleep', 'com.acme.DemoServiceImpl.sayHello'),
  }));
const names = (n: number) => Array.from({ length: n }, (_, k) => `DubboServerHandler-127.0.0.1:20880-thread-${k + 1}`);

/** A counter at `active` of `limit` with the first `n` provider threads inside the method, in the one dump. */
const leak = (active: number, limit: number, n: number, threads = 4) =>
  modelOf([{ threads: inside(threads) }], (m) => ({
    counters: [counter({ active, limit, threadsInside: [{ dump: 0, count: n, threads: refs(m, names(n)) }] })],
  }));

const CASES: Case[] = [
  {
    name: 'at its limit with nobody inside: every call counted in was never counted out',
    model: () => leak(128, 128, 0),
    expect: [
      {
        subject: 'com.acme.DemoService#sayHello',
        severity: 'critical',
        facts: { active: 128, limit: 128, executingThreads: 0, leaked: 128 },
        message: /no thread executes the method.*New calls are rejected/,
      },
    ],
  },
  {
    name: 'near its limit (90%) with two inside: a leak, not yet rejecting',
    model: () => leak(120, 128, 2),
    expect: [{ subject: 'com.acme.DemoService#sayHello', severity: 'error', facts: { leaked: 118 } }],
  },
  { name: 'negative control: the threads really are inside (saturation)', model: () => leak(4, 4, 4), expect: [] },
  { name: 'negative control: far below the limit', model: () => leak(10, 128, 0), expect: [] },
  {
    name: 'negative control: no thread dump of this JVM, so a leak cannot be told from saturation',
    model: () => modelOf([], () => ({ counters: [counter({ active: 128, limit: 128 })] })),
    expect: [],
  },
];

describe('active-count-leak: hand-built cases', () => {
  for (const c of CASES) test(c.name, () => void check('active-count-leak', c));
});
