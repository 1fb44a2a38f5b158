/**
 * gc-overhead: the collector's threads' share of the CPU of all the process's threads, from one
 * dump (over the JVM's life, when it also kept cores busy) and across a series (between the first and
 * last dump); the controls: a busy application, an idle JVM whose little CPU went mostly to GC, and
 * a dump without cpu= figures.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, test } from 'vitest';

import { analyseFiles, scratchDir } from '../helpers.js';
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

describe("gc-overhead: a dump the JVM wrote because its heap ran out (the dump's own trigger)", () => {
  // Hand-written javacores (a format edge case): the title lines of an OpenJ9 javacore written for an
  // OutOfMemoryError (the shape of runtime/rasdump/javadump.cpp's 1TISIGINFO and 1STHEAP* lines), one thread.
  const javacore = (trigger: string, inUse: number) =>
    [
      '0SECTION       TITLE subcomponent dump routine',
      `1TISIGINFO     ${trigger}`,
      '1TIDATETIME    Date: 2020/08/04 at 02:59:44:712',
      '0SECTION       MEMINFO subcomponent dump routine',
      '1STHEAPTOTAL   Total memory:                   268435456 (0x0000000010000000)',
      `1STHEAPINUSE   Total memory in use:            ${inUse} (0x000000000F9F0AD0)`,
      '0SECTION       THREADS subcomponent dump routine',
      '3XMTHREADINFO      "Default Executor-thread-7" J9VMThread:0x1, omrthread_t:0x2, java/lang/Thread:0x3, state:R, prio=5',
      '4XESTACKTRACE                at com/acme/Report.build(Report.java:40)',
      '',
    ].join('\n');
  const analysed = async (text: string) => {
    const dir = scratchDir('oom');
    const path = join(dir, 'javacore.txt');
    await writeFile(path, text);
    return analyseFiles([path]);
  };

  test('an OutOfMemoryError of the heap is an error, with the trigger and how full the heap was', async () => {
    const { model, findings } = await analysed(
      javacore('Dump Event "systhrow" (00040000) Detail "java/lang/OutOfMemoryError" "Java heap space" received', 262081232),
    );
    expect(model.dumps[0]!.trigger).toEqual({ event: 'systhrow', detail: '"java/lang/OutOfMemoryError" "Java heap space"', line: 2 });
    const f = findings.filter((x) => x.rule === 'gc-overhead');
    expect(f.map((x) => x.severity)).toEqual(['error']);
    expect(f[0]!.message).toMatch(/because it threw "java\/lang\/OutOfMemoryError" "Java heap space" .* with 250 MiB of its 256 MiB heap in use \(98 %\)/);
    expect(f[0]!.evidence.map((e) => (e.kind === 'log' ? e.line : undefined))).toEqual([2, 5]);
  });

  test('controls: a dump asked for by a user, and an OutOfMemoryError that is not the heap (native threads), say nothing', async () => {
    for (const trigger of [
      'Dump Event "user" (00004000) received',
      'Dump Event "systhrow" (00040000) Detail "java/lang/OutOfMemoryError" "Failed to create a thread: retVal -106040066, errno 11" received',
    ]) {
      const { findings } = await analysed(javacore(trigger, 1000));
      expect(
        findings.filter((x) => x.rule === 'gc-overhead'),
        trigger,
      ).toEqual([]);
    }
  });
});
