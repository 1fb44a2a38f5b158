/**
 * thread-leak on a real JVM (fixtures/generate-runtime-incidents.sh): an executor created per request
 * and never shut down, and a Timer every fifth request; a shared pool and a pool at its maximum are
 * the controls. Across the series the instances grow; one dump alone is judged by a higher bar.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, test } from 'vitest';

import { resolveConfig } from '../../src/engine/config.js';
import { runRules } from '../../src/engine/run-rules.js';
import { RULES } from '../../src/rules/index.js';
import { INSTANCE_NAMINGS, instanceNamingOf } from '../../src/rules/support/instance-namings.js';
import { analyseFiles, analyseIncident, INCIDENTS, threadDumpTextFiles, truthOf } from '../helpers.js';
import { type Case, check, type DumpSpec, idlePoolWorker, modelOf, type ThreadSpec } from './build.js';

const DIR = join(INCIDENTS, 'thread-leak');
const truth = truthOf('thread-leak') as {
  facts: { leakPattern: string; threadsPerPool: number; timerPattern: string; fullPool: string };
};
type Found = { rule: string; subject: string; severity: string; message: string; facts: Record<string, unknown> };
const leaks = (findings: readonly { rule: string }[]) => findings.filter((f) => f.rule === 'thread-leak') as Found[];

describe('thread-leak', { timeout: 60_000 }, () => {
  test('the per-request executors and timers, growing in every dump; not the pool at its maximum', async () => {
    const found = leaks((await analyseIncident(DIR)).findings);
    expect(found.map((f) => f.subject).sort()).toEqual([truth.facts.leakPattern, truth.facts.timerPattern].sort());
    const pools = found.find((f) => f.subject === truth.facts.leakPattern)!;
    expect(pools.facts['growing']).toBe(true);
    const perDump = pools.facts['instancesPerDump'] as number[];
    expect(perDump[2]! - perDump[0]!).toBeGreaterThanOrEqual(10);
    // Each leaked pool keeps its two threads, all waiting for work; the shared pool adds its 8.
    expect(pools.facts['threads']).toBe((perDump[2]! - 1) * truth.facts.threadsPerPool + 8);
    expect(pools.facts['idleThreads']).toBe(pools.facts['threads']);
    expect(JSON.stringify(found)).not.toContain(truth.facts.fullPool);
  });

  test('one dump alone: not by default (an application may have dozens of pools), yes with a lower bar', async () => {
    const { model } = await analyseFiles([join(DIR, 'dump-3.txt')]);
    expect(leaks(runRules(model, RULES, resolveConfig(RULES, {}, 'test')))).toEqual([]);
    const lower = leaks(runRules(model, RULES, resolveConfig(RULES, { rules: { 'thread-leak': { options: { minInstances: 20 } } } }, 'test')));
    // The executors certainly (two threads a pool, ten pools a second); the timers when there are 20 by then.
    expect(lower.map((f) => f.subject)).toContain(truth.facts.leakPattern);
    expect(lower.every((f) => [truth.facts.leakPattern, truth.facts.timerPattern].includes(f.subject))).toBe(true);
  });

  test('the first-character test before the patterns loses no name: every fixture and corpus name, and one of each scheme', () => {
    const names = new Set(INSTANCE_NAMINGS.map((n) => n.scheme.replaceAll('#', '7')));
    for (const dir of [INCIDENTS])
      for (const inc of readdirSync(dir))
        for (const f of readdirSync(join(dir, inc)).filter((x) => x.endsWith('.txt'))) {
          for (const m of readFileSync(join(dir, inc, f), 'utf8').matchAll(/^"([^"]*)"/gm)) names.add(m[1]!);
        }
    for (const file of threadDumpTextFiles()) for (const m of readFileSync(file, 'latin1').matchAll(/^"([^"]*)"/gm)) names.add(m[1]!);
    let matched = 0;
    for (const name of names) {
      const plain = INSTANCE_NAMINGS.find((n) => n.pattern.test(name));
      expect(instanceNamingOf(name)?.naming.scheme, name).toBe(plain?.scheme);
      if (plain !== undefined) {
        matched++;
        expect(
          plain.starts.some((s) => name.startsWith(s)),
          name,
        ).toBe(true);
      }
    }
    // Every scheme's example, and the thread-leak incident's pools and timers.
    expect(matched).toBeGreaterThan(INSTANCE_NAMINGS.length + 20);
  });
});

/** One idle worker of each executor `pool-<from>` to `pool-<to>` (what Executors' default factory names). */
const pools = (from: number, to: number): ThreadSpec[] =>
  Array.from({ length: to - from + 1 }, (_, k) => ({
    name: `pool-${from + k}-thread-1`,
    javaId: `${1000 + from + k}`,
    nativeId: `0x${(5000 + from + k).toString(16)}`,
    ...idlePoolWorker,
  }));
/** Threads every dump of the JVM shares, with their ids: what makes later dumps the same JVM's. */
const stable: ThreadSpec[] = Array.from({ length: 40 }, (_, k) => ({
  name: `app-${k}`,
  javaId: `${k + 1}`,
  nativeId: `0x${(100 + k).toString(16)}`,
  ...idlePoolWorker,
}));
const seriesOf = (...counts: number[]): DumpSpec[] => counts.map((n, k) => ({ at: `2026-11-30T09:30:0${k}`, threads: [...stable, ...pools(2, n + 1)] }));

const HAND_BUILT: Case[] = [
  {
    name: '120 executors in one dump, each with an idle thread',
    model: () => modelOf([{ threads: pools(2, 121) }]),
    expect: [{ subject: 'pool-#-thread-#', severity: 'warning', facts: { growing: false } }],
  },
  { name: "negative control: 30 executors in one dump are an application's own", model: () => modelOf([{ threads: pools(2, 31) }]), expect: [] },
  {
    name: 'the bar for one dump is an option',
    model: () => modelOf([{ threads: pools(2, 31) }]),
    options: { minInstances: 20 },
    expect: [{ subject: 'pool-#-thread-#' }],
  },
  {
    name: 'a series where the executors grow in every dump, 10 -> 20 -> 30',
    model: () => modelOf(seriesOf(10, 20, 30)),
    expect: [{ subject: 'pool-#-thread-#', facts: { growing: true, instancesPerDump: [10, 20, 30] } }],
  },
  { name: 'negative control: a series where they stay at 30', model: () => modelOf(seriesOf(30, 30, 30)), expect: [] },
];

describe('thread-leak: hand-built cases', () => {
  for (const c of HAND_BUILT) test(c.name, () => void check('thread-leak', c));
});

/** Threads started by hand, one per call, all in one place (`new Thread(handler).start()`). */
const handStarted = (n: number, run = 'com.acme.Upload.run'): ThreadSpec[] =>
  Array.from({ length: n }, (_, k) => ({
    name: `Thread-${k + 7}`,
    state: 'WAITING' as const,
    detail: 'parking',
    frames: [
      'jdk.internal.misc.Unsafe.park(Native Method)',
      'java.util.concurrent.locks.LockSupport.park',
      'com.acme.Upload.awaitAck',
      run,
      'java.lang.Thread.run',
    ],
  }));

const EXPLOSIONS: Case[] = [
  {
    name: 'a thread explosion in one dump: 150 threads started by hand in one place, whatever they do',
    model: () => modelOf([{ threads: handStarted(150) }]),
    expect: [
      {
        subject: 'Thread-#',
        facts: { creationSite: 'com.acme.Upload.run', instances: 150 },
        message: /150 of them run com.acme.Upload.run, where they are started/,
      },
    ],
  },
  {
    name: 'negative control: 150 unnamed threads from many places, none of them a hundred',
    model: () => modelOf([{ threads: [...handStarted(75), ...handStarted(75, 'com.acme.Mail.run').map((t, k) => ({ ...t, name: `Thread-${k + 500}` }))] }]),
    expect: [],
  },
];

describe('thread-leak: threads started one by one', () => {
  for (const c of EXPLOSIONS) test(c.name, () => void check('thread-leak', c));
});
