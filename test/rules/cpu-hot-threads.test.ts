/**
 * cpu-hot-threads on a real JVM's runaway (fixtures/generate-runtime-incidents.sh: one thread spins
 * in a loop; six RUNNABLE socket readers, a batch thread at about 10 % of a core and an idle pool
 * look like it and are fine), measured from cpu=/elapsed= across the series, from the `top -H`
 * files alone, and from one dump (the other incidents: test/incidents/expected-rules.test.ts).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, describe, expect, test } from 'vitest';

import { defaultConfig, resolveConfig } from '../../src/engine/config.js';
import { runRules } from '../../src/engine/run-rules.js';
import { TopThreadsCollector } from '../../src/logs/top-threads.js';
import { RULES } from '../../src/rules/index.js';
import { analyseFiles, analyseIncident, CORPUS, INCIDENTS, scratchDir, truthOf } from '../helpers.js';
import { type Case, check, type DumpSpec, modelOf, type ThreadSpec } from './build.js';

const DIR = join(INCIDENTS, 'cpu-runaway');
const truth = truthOf('cpu-runaway') as {
  facts: { hot: string; readerPrefix: string; socketReaders: number; batch: string; idlePool: string };
};
const scratch = scratchDir('cpu');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const cpuFindings = (findings: readonly { rule: string }[]) =>
  findings.filter((f) => f.rule === 'cpu-hot-threads') as Array<{
    rule: string;
    subject: string;
    severity: string;
    message: string;
    facts: Record<string, unknown>;
  }>;

/** The named thread's header and state lines in a dump, to check the controls look like the runaway. */
function stateOf(dump: string, name: string): string {
  const text = readFileSync(join(DIR, dump), 'utf8');
  const at = text.indexOf(`"${name}"`);
  return text.slice(at, text.indexOf('\n', text.indexOf('\n', at) + 1));
}

describe('cpu-hot-threads', { timeout: 60_000 }, () => {
  test('the runaway is found, by its cpu= across the series and by top -H, and none of its look-alikes', async () => {
    // The controls are what a RUNNABLE-means-busy reading would report: readers RUNNABLE in a socket read.
    expect(stateOf('dump-3.txt', `${truth.facts.readerPrefix}1`)).toMatch(/RUNNABLE/);
    const { findings } = await analyseIncident(DIR);
    const cpu = cpuFindings(findings);
    expect(cpu.map((f) => f.subject)).toEqual([truth.facts.hot]);
    expect(cpu[0]!.severity).toBe('error');
    expect(cpu[0]!.facts['measuredBy']).toEqual(['series', 'top']);
    expect(cpu[0]!.facts['coreShare'] as number).toBeGreaterThan(0.9);
    expect(cpu[0]!.message).toContain('RangeQuery.intersect');
    // The stuck-threads finding of the same thread points at it as its cause.
    expect(findings.find((f) => f.rule === 'stuck-threads' && f.message.includes(truth.facts.hot))?.causedBy).toContain(`cpu-hot-threads:${truth.facts.hot}`);
  });

  test('without cpu= in the headers (a JDK 8 dump), the top -H files alone find it', async () => {
    // Derived from the fixture: the same dumps with the JDK 11+ cpu= and elapsed= words removed.
    const dir = join(scratch, 'jdk8-like');
    mkdirSync(dir);
    for (const f of readdirSync(DIR).filter((n) => /^(dump|top)-\d\.txt$/.test(n))) {
      const text = readFileSync(join(DIR, f), 'utf8');
      writeFileSync(join(dir, f), f.startsWith('dump') ? text.replace(/ cpu=[\d.]+ms elapsed=[\d.]+s/g, '') : text);
    }
    const cpu = cpuFindings((await analyseIncident(dir)).findings);
    expect(cpu.map((f) => [f.subject, f.facts['measuredBy']])).toEqual([[truth.facts.hot, ['top']]]);
    // And with neither, there is nothing to measure: no finding.
    for (const f of readdirSync(dir).filter((n) => n.startsWith('top'))) rmSync(join(dir, f));
    expect(cpuFindings((await analyseIncident(dir)).findings)).toEqual([]);
  });

  test("one dump gives a hint at most (info), from the thread's lifetime", async () => {
    const { model } = await analyseIncident(DIR, { threadsOnly: true });
    const one = {
      ...model,
      dumps: [model.dumps[2]!],
      threadRefs: [model.dumps[2]!.threads.map((th, thread) => ({ dump: 0, thread, name: th.name }))],
      activity: [model.activity[2]!],
      series: [],
      cpuSamples: [],
    };
    const config = defaultConfig(RULES);
    const quick = resolveConfig(RULES, { rules: { 'cpu-hot-threads': { options: { minLifetimeSeconds: 1 } } } }, 'test');
    const cpu = cpuFindings(runRules(one, RULES, quick));
    expect(cpu.map((f) => [f.subject, f.severity, f.facts['measuredBy']])).toEqual([[truth.facts.hot, 'info', ['lifetime']]]);
    // By default a thread must have lived a minute for its average to mean anything.
    expect(cpuFindings(runRules(one, RULES, config))).toEqual([]);
  });
});

describe('top -H output', () => {
  test("the fixture's frames: one sample each, PIDs as native ids, TIME+ in seconds", () => {
    const c = new TopThreadsCollector('top-1.txt');
    readFileSync(join(DIR, 'top-1.txt'), 'utf8')
      .split('\n')
      .forEach((l, i) => c.push(l, i + 1));
    const [sample, ...rest] = c.finish();
    expect(rest).toEqual([]);
    expect(sample!.takenAt).toMatch(/^\d\d:\d\d:\d\d$/);
    const dump = readFileSync(join(DIR, 'dump-1.txt'), 'utf8');
    const nid = /"CHANGE_HISTORY-indexQueue:thread-1".* nid=(0x[0-9a-f]+)/.exec(dump)![1];
    const hot = sample!.threads.find((t) => t.nativeId === nid)!;
    expect(hot.command).toMatch(/^CHANGE_HI/);
    expect(hot.cpuPercent).toBeGreaterThan(50);
    expect(hot.cpuSeconds).toBeGreaterThan(0);
  });

  const watson = join(CORPUS, 'drauf__watson', 'CPU-USAGE-DUMP-1.txt');
  test.runIf(existsSync(watson))('a production top -H (Jira, 482 threads): TIME+ past an hour', () => {
    const c = new TopThreadsCollector('watson');
    readFileSync(watson, 'utf8')
      .split('\n')
      .forEach((l, i) => c.push(l, i + 1));
    const [sample] = c.finish();
    expect(sample!.threads.length).toBeGreaterThan(400);
    expect(sample!.threads[0]).toMatchObject({ pid: 15365, nativeId: '0x3c05', cpuPercent: 99.9, cpuSeconds: 144 * 60 + 51.95 });
  });
  if (!existsSync(watson)) test.skip(`${watson} (needs ../shared)`, () => undefined);
});

/** The threads in two dumps ten seconds apart; each thread's `cpu` says its CPU time (ms) in each. */
function twoDumps(threads: ReadonlyArray<Omit<ThreadSpec, 'cpuMs' | 'elapsedS'> & { cpu: [number, number] }>): DumpSpec[] {
  return [0, 1].map((k) => ({
    at: `2026-11-30T09:30:${k === 0 ? '00' : '10'}`,
    threads: threads.map(({ cpu, ...t }, i) => ({ ...t, javaId: `${i + 1}`, nativeId: `0x${(i + 100).toString(16)}`, cpuMs: cpu[k], elapsedS: 100 + 10 * k })),
  }));
}
const spinner = { name: 'indexer', state: 'RUNNABLE' as const, frames: ['com.acme.Index.intersect', 'com.acme.Index.run', 'java.lang.Thread.run'] };
const reader = {
  name: 'jdbc-reader',
  state: 'RUNNABLE' as const,
  frames: ['sun.nio.ch.SocketDispatcher.read0(Native Method)', 'sun.nio.ch.NioSocketImpl.read', 'com.acme.Db.fetch'],
};

const HAND_BUILT: Case[] = [
  {
    name: 'a thread that used 9.5 s of CPU in 10 s, from cpu= across two dumps',
    model: () => modelOf(twoDumps([{ ...spinner, cpu: [1000, 10_500] }])),
    expect: [{ subject: 'indexer', severity: 'error', facts: { coreShare: 0.95, measuredBy: ['series'] }, message: /"indexer" uses 95 % of a core/ }],
  },
  {
    name: 'at 60 % of a core: a warning',
    model: () => modelOf(twoDumps([{ ...spinner, cpu: [1000, 7000] }])),
    expect: [{ subject: 'indexer', severity: 'warning' }],
  },
  { name: 'negative control: RUNNABLE in a socket read, using 1 % of a core', model: () => modelOf(twoDumps([{ ...reader, cpu: [50, 150] }])), expect: [] },
  { name: 'negative control: 30 % of a core is below minCoreShare', model: () => modelOf(twoDumps([{ ...spinner, cpu: [1000, 4000] }])), expect: [] },
  {
    name: 'the threshold is an option',
    model: () => modelOf(twoDumps([{ ...spinner, cpu: [1000, 4000] }])),
    options: { minCoreShare: 0.25 },
    expect: [{ subject: 'indexer', facts: { coreShare: 0.3 } }],
  },
];

describe('cpu-hot-threads: hand-built cases', () => {
  for (const c of HAND_BUILT) test(c.name, () => void check('cpu-hot-threads', c));
});

const ONE_DUMP: Case[] = [
  {
    name: 'one dump: a thread running code that used 95 % of a core over 39 s of life is a runaway (a warning)',
    model: () => modelOf([{ threads: [{ ...spinner, cpuMs: 37_000, elapsedS: 39 }] }]),
    expect: [{ subject: 'indexer', severity: 'warning', message: /a runaway, even from one dump/ }],
  },
  {
    name: 'one dump: 60 % of a core over its life is only a hint (info)',
    model: () => modelOf([{ threads: [{ ...spinner, cpuMs: 600_000, elapsedS: 1000 }] }]),
    expect: [{ subject: 'indexer', severity: 'info' }],
  },
  {
    name: 'one dump: negative control: it burned a core, and now waits in a socket read',
    model: () => modelOf([{ threads: [{ ...reader, cpuMs: 950_000, elapsedS: 1000 }] }]),
    expect: [],
  },
  {
    name: 'one dump: a young thread at 95 % is only a hint',
    model: () => modelOf([{ threads: [{ ...spinner, cpuMs: 9_500, elapsedS: 10 }] }]),
    options: { minLifetimeSeconds: 5 },
    expect: [{ subject: 'indexer', severity: 'info' }],
  },
];

const yieldSpinner = {
  name: 'order-book-spinner',
  state: 'RUNNABLE' as const,
  frames: ['java.lang.Thread.yield(Native Method)', 'com.acme.OrderBook.awaitReady', 'java.lang.Thread.run'],
};
ONE_DUMP.push(
  {
    name: 'one dump: 74 % of a core over 40 s of life, running code now, is a runaway',
    model: () => modelOf([{ threads: [{ ...spinner, cpuMs: 29_600, elapsedS: 40 }] }]),
    expect: [{ subject: 'indexer', severity: 'warning', facts: { coreShare: 0.74 }, message: /Over 67 % of a core for more than 20 s of its life/ }],
  },
  {
    name: 'one dump: negative control: the same share over 15 s of life is too young to call (and too young for a hint)',
    model: () => modelOf([{ threads: [{ ...spinner, cpuMs: 11_100, elapsedS: 15 }] }]),
    expect: [],
  },
  {
    name: 'one dump: RUNNABLE in Thread.yield called from its own loop, 90 % of a core over 26 s: a spinner',
    model: () => modelOf([{ threads: [{ ...yieldSpinner, cpuMs: 23_400, elapsedS: 26 }] }]),
    expect: [
      {
        subject: 'order-book-spinner',
        severity: 'warning',
        facts: { spinsIn: 'java.lang.Thread.yield' },
        message: /It spins: RUNNABLE in java\.lang\.Thread\.yield called from its own loop in com\.acme\.OrderBook\.awaitReady/,
      },
    ],
  },
  {
    name: 'one dump: a spinner is called sooner than a runaway: 55 % of a core over 8 s',
    model: () => modelOf([{ threads: [{ ...yieldSpinner, cpuMs: 4_400, elapsedS: 8 }] }]),
    expect: [{ subject: 'order-book-spinner', severity: 'warning' }],
  },
  {
    name: 'one dump: on JDK 21+ the native frame is Thread.yield0 beneath Thread.yield: the same spinner',
    model: () =>
      modelOf([
        {
          threads: [
            {
              ...yieldSpinner,
              frames: ['java.lang.Thread.yield0(Native Method)', 'java.lang.Thread.yield', 'com.acme.OrderBook.awaitReady', 'java.lang.Thread.run'],
              cpuMs: 23_400,
              elapsedS: 26,
            },
          ],
        },
      ]),
    expect: [{ subject: 'order-book-spinner', facts: { spinsIn: 'java.lang.Thread.yield' }, message: /in com\.acme\.OrderBook\.awaitReady/ }],
  },
  {
    name: 'one dump: Thread.onSpinWait (JDK 9+) in its own loop is a spin-wait too',
    model: () =>
      modelOf([
        {
          threads: [
            { ...yieldSpinner, frames: ['java.lang.Thread.onSpinWait', 'com.acme.Ring.awaitSlot', 'java.lang.Thread.run'], cpuMs: 9_000, elapsedS: 10 },
          ],
        },
      ]),
    expect: [{ subject: 'order-book-spinner', facts: { spinsIn: 'java.lang.Thread.onSpinWait' } }],
  },
  {
    name: 'one dump: negative control: a spinner one second old',
    model: () => modelOf([{ threads: [{ ...yieldSpinner, cpuMs: 950, elapsedS: 1 }] }]),
    expect: [],
  },
  {
    name: "one dump: negative control: the JDK's own spin before it parks (SynchronousQueue) is not the thread's loop",
    model: () =>
      modelOf([
        {
          threads: [
            {
              ...yieldSpinner,
              frames: ['java.lang.Thread.yield(Native Method)', 'java.util.concurrent.SynchronousQueue$TransferStack.awaitFulfill', 'com.acme.Handoff.take'],
              cpuMs: 18_000,
              elapsedS: 30,
            },
          ],
        },
      ]),
    expect: [],
  },
  {
    name: 'one dump: negative control: it burned most of a core, and now waits for a monitor',
    model: () =>
      modelOf([
        {
          threads: [
            {
              name: 'report-writer',
              state: 'BLOCKED',
              detail: 'on object monitor',
              frames: ['com.acme.Report.write', 'java.lang.Thread.run'],
              locks: [{ at: 0, kind: 'waiting-to-lock', id: '0x70', className: 'java.lang.Object' }],
              cpuMs: 21_000,
              elapsedS: 25,
            },
          ],
        },
      ]),
    expect: [],
  },
);

describe('cpu-hot-threads: a runaway from one dump', () => {
  for (const c of ONE_DUMP) test(c.name, () => void check('cpu-hot-threads', c));
});

/**
 * One dump of real JVMs (fixtures/generate-single-dump-evidence.sh, one JVM a scenario): a thread
 * spinning in Thread.yield for about 23 s, a thread computing about three quarters of the time, and
 * the controls: threads that computed for 21 s and now wait for work or for a monitor, and busy
 * threads a second old. truth.json holds each thread's CPU and age as the JVM measured them.
 */
const LIFETIME = join('fixtures', 'threads', 'lifetime-cpu');
type LifetimeTruth = { facts: { threads: Record<string, { cpuSeconds: number; ageSeconds: number; share: number; state: string }> } };
const lifetimeTruth = (scenario: string) => JSON.parse(readFileSync(join(LIFETIME, scenario, 'truth.json'), 'utf8')) as LifetimeTruth;
const lifetimeFindings = async (scenario: string) => cpuFindings((await analyseFiles([join(LIFETIME, scenario, 'dump.txt')])).findings);
const bar = (option: string) => Number(defaultConfig(RULES)['cpu-hot-threads']!.options[option]);

describe('cpu-hot-threads: one dump of a real JVM', { timeout: 60_000 }, () => {
  test('a thread spinning in Thread.yield is a spinner (a warning) from its lifetime share', async () => {
    const t = lifetimeTruth('spinner').facts.threads['order-book-spinner']!;
    expect(t.share).toBeGreaterThanOrEqual(bar('spinLifetimeShare'));
    const cpu = await lifetimeFindings('spinner');
    expect(cpu.map((f) => [f.subject, f.severity, f.facts['spinsIn']])).toEqual([['order-book-spinner', 'warning', 'java.lang.Thread.yield']]);
    expect(cpu[0]!.message).toMatch(
      /It spins: RUNNABLE in java\.lang\.Thread\.yield called from its own loop in com\.example\.matching\.LifetimeCpu\$OrderBook\.awaitReady/,
    );
  });

  test('a thread computing about three quarters of the time for over 20 s, running code now, is a runaway', async () => {
    const t = lifetimeTruth('pricing').facts.threads['pricing-worker']!;
    expect(t.share).toBeGreaterThanOrEqual(bar('runawayLifetimeShare'));
    expect(t.ageSeconds).toBeGreaterThanOrEqual(bar('runawayLifetimeSeconds'));
    const cpu = await lifetimeFindings('pricing');
    expect(cpu.map((f) => [f.subject, f.severity])).toEqual([['pricing-worker', 'warning']]);
    expect(cpu[0]!.message).toMatch(/running code now: a runaway, even from one dump/);
  });

  test('negative controls: busy earlier and waiting now (for work, for a monitor); busy and a second old', async () => {
    const idle = lifetimeTruth('idle-now').facts.threads;
    const blocked = lifetimeTruth('blocked-now').facts.threads;
    // They are controls because their lifetime share is past the runaway bar: only what they do now, or their age, tells them apart.
    for (const t of [idle['cache-warmer']!, blocked['report-writer']!]) {
      expect(t.share).toBeGreaterThanOrEqual(bar('runawayLifetimeShare'));
      expect(t.ageSeconds).toBeGreaterThanOrEqual(bar('runawayLifetimeSeconds'));
    }
    // The young ones run now (one in Thread.yield) and are younger than the lowest bar's life.
    for (const t of [idle['fresh-spinner']!, idle['fresh-cruncher']!]) {
      expect(t.state).toBe('RUNNABLE');
      expect(t.ageSeconds).toBeLessThan(bar('spinLifetimeSeconds'));
    }
    expect([...(await lifetimeFindings('idle-now')), ...(await lifetimeFindings('blocked-now'))]).toEqual([]);
  });
});
