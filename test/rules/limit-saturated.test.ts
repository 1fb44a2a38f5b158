/**
 * limit-saturated: hand-built counters (at the limit with the threads really inside; at the limit
 * with no thread dump of the JVM; and the controls: nobody inside, which is a leak, and far from the
 * limit). The real JVMs' saturation is checked in test/incidents/dubbo.test.ts and more-pools.test.ts.
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
const at = (active: number, limit: number, n: number) =>
  modelOf([{ threads: inside(Math.max(n, 1)) }], (m) => ({
    counters: [counter({ active, limit, threadsInside: [{ dump: 0, count: n, threads: refs(m, names(n)) }] })],
  }));

const CASES: Case[] = [
  {
    name: 'ten in flight against ten, and ten threads inside: the counter tells the truth',
    model: () => at(10, 10, 10),
    expect: [
      {
        subject: 'com.acme.DemoService#sayHello',
        severity: 'warning',
        facts: { active: 10, limit: 10, executingThreads: 10 },
        message: /10 threads really are inside the method: the service is saturated/,
      },
    ],
  },
  {
    name: 'at the limit with no thread dump: says a leak cannot be told from saturation',
    model: () => modelOf([], () => ({ counters: [counter({ active: 16, limit: 16 })] })),
    expect: [{ subject: 'com.acme.DemoService#sayHello', message: /No thread dump of this JVM was given, so a leak cannot be told from saturation/ }],
  },
  { name: 'negative control: nobody inside is a leak (active-count-leak), not saturation', model: () => at(10, 10, 0), expect: [] },
  { name: 'negative control: half the limit', model: () => at(5, 10, 5), expect: [] },
  {
    name: 'the near-limit ratio is an option',
    model: () => at(5, 10, 5),
    options: { nearLimitRatio: 0.5 },
    expect: [{ subject: 'com.acme.DemoService#sayHello' }],
  },
];

describe('limit-saturated: hand-built cases', () => {
  for (const c of CASES) test(c.name, () => void check('limit-saturated', c));
});
