/**
 * gc-overhead: the collector's threads' share of the CPU of all the process's threads, from one
 * dump (over the JVM's life, when it also kept cores busy) and across a series (between the first and
 * last dump); the controls: a busy application, an idle JVM whose little CPU went mostly to GC, and
 * a dump without cpu= figures.
 */
import { describe, test } from 'vitest';

import { type Case, check, modelOf, type ThreadSpec } from './build.js';

const gc = (name: string, cpuS: number, elapsedS: number): ThreadSpec => ({ name, cpuMs: cpuS * 1000, elapsedS });
const app = (name: string, cpuS: number, elapsedS: number): ThreadSpec => ({
  name,
  cpuMs: cpuS * 1000,
  elapsedS,
  state: 'RUNNABLE',
  frames: ['com.acme.Orders.price', 'java.lang.Thread.run'],
});

const CASES: Case[] = [
  {
    name: 'one dump: four GC threads used 70 % of the CPU, two cores on average over an hour: an error',
    model: () =>
      modelOf([
        {
          threads: [
            gc('GC Thread#0', 1800, 3600),
            gc('GC Thread#1', 1800, 3600),
            gc('G1 Conc#0', 1800, 3600),
            gc('G1 Refine#0', 1800, 3600),
            app('orders-1', 3000, 3600),
          ],
        },
      ]),
    expect: [{ subject: 'garbage collector', severity: 'error', facts: { gcThreads: 4, measuredBy: 'lifetime', gcShare: 0.706, gcCores: 2 } }],
  },
  {
    name: 'a series: between the dumps the collector used 40 % (a warning), whatever it used before',
    model: () =>
      modelOf([
        { at: '2026-12-03T10:00:00', threads: [gc('GC Thread#0', 10, 1000), app('orders-1', 900, 1000)] },
        { at: '2026-12-03T10:00:20', threads: [gc('GC Thread#0', 26, 1020), app('orders-1', 924, 1020)] },
      ]),
    expect: [{ subject: 'garbage collector', severity: 'warning', facts: { measuredBy: 'series', gcShare: 0.4, gcCpuSeconds: 16 } }],
  },
  {
    name: 'negative control: the application uses the CPU, the collector a tenth of it',
    model: () => modelOf([{ threads: [gc('GC Thread#0', 300, 3600), app('orders-1', 2700, 3600)] }]),
    expect: [],
  },
  {
    name: 'negative control: an idle JVM over a day: most of its little CPU went to the collector, a twentieth of a core',
    model: () => modelOf([{ threads: [gc('ParGC Thread#0', 5000, 100_000), app('main', 1000, 100_000)] }]),
    expect: [],
  },
  {
    name: 'negative control: no cpu= figures (JDK 8 and before)',
    model: () =>
      modelOf([{ threads: [{ name: 'GC task thread#0 (ParallelGC)' }, { name: 'orders-1', state: 'RUNNABLE', frames: ['com.acme.Orders.price'] }] }]),
    expect: [],
  },
];

describe('gc-overhead: hand-built cases', () => {
  for (const c of CASES) test(c.name, () => void check('gc-overhead', c));
});
