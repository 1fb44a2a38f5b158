/**
 * stuck-threads: hand-built series (a thread blocked in one place in both dumps, a runaway linked to
 * its CPU finding, and the controls: one dump, idle threads, a thread that moved), then the real
 * JVM's series fixture and its JSON report's golden file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, test } from 'vitest';

import { renderJson } from '../../src/report/json.js';
import { analyse, byRule, FIXTURES, scratchDir, TEST_TOOL } from '../helpers.js';
import { type Case, check, type DumpSpec, idlePoolWorker, modelOf, type ThreadSpec } from './build.js';

/** The same threads in dumps ten seconds apart; `change` alters a thread in the later dumps. */
function series(threads: readonly ThreadSpec[], dumps = 2, change: (t: ThreadSpec, k: number) => ThreadSpec = (t) => t): DumpSpec[] {
  return Array.from({ length: dumps }, (_, k) => ({
    at: `2026-11-30T09:30:${String(10 * k).padStart(2, '0')}`,
    threads: threads.map((t, i) => ({ javaId: `${i + 1}`, nativeId: `0x${(i + 100).toString(16)}`, ...(k === 0 ? t : change(t, k)) })),
  }));
}

const lockOwner: ThreadSpec = {
  name: 'ledger-owner',
  state: 'WAITING',
  detail: 'on object monitor',
  frames: ['java.lang.Object.wait(Native Method)', 'com.acme.Ledger.settle'],
  locks: [{ at: 1, kind: 'locked', id: '0x1', className: 'com.acme.Ledger' }],
};
const blocked: ThreadSpec = {
  name: 'ledger-writer',
  state: 'BLOCKED',
  detail: 'on object monitor',
  frames: ['com.acme.Ledger.append', 'com.acme.Api.handle'],
  locks: [{ at: 0, kind: 'waiting-to-lock', id: '0x1', className: 'com.acme.Ledger' }],
};
const idle: ThreadSpec = { name: 'worker-1', ...idlePoolWorker };

const CASES: Case[] = [
  {
    name: 'a thread blocked on the same lock in both dumps, its owner waiting forever',
    model: () => modelOf(series([lockOwner, blocked, idle])),
    expect: [
      { subject: 'com.acme.Ledger.settle (WAITING)', facts: { threads: ['ledger-owner'], dumps: [0, 1], spanSeconds: 10 } },
      {
        subject: 'com.acme.Ledger.append (BLOCKED)',
        facts: { threads: ['ledger-writer'], state: 'BLOCKED' },
        message: /stayed BLOCKED in com.acme.Ledger.append with the same stack in all 2 dumps \(10 s\)/,
      },
    ],
  },
  {
    name: 'a runaway burning a core in one place links to its CPU finding',
    model: () =>
      modelOf(
        series([{ name: 'indexer', state: 'RUNNABLE', frames: ['com.acme.Index.intersect', 'com.acme.Index.run'], cpuMs: 1000, elapsedS: 100 }], 2, (t) => ({
          ...t,
          cpuMs: 10_500,
          elapsedS: 110,
        })),
      ),
    expect: [{ subject: 'com.acme.Index.intersect (RUNNABLE)', facts: { runaway: true, cpuMsDelta: 9500 }, message: /a runaway in one place/ }],
  },
  {
    name: 'virtual threads with no name (they usually have none) are counted, not listed as ""',
    model: () =>
      modelOf(
        series([
          lockOwner,
          ...[1, 2, 3].map((k) => ({ ...blocked, name: '', virtual: true, javaId: String(100 + k) })),
          { ...blocked, name: 'transfer-1', virtual: true, javaId: '99' },
        ]),
      ),
    expect: [
      { subject: 'com.acme.Ledger.settle (WAITING)' },
      {
        subject: 'com.acme.Ledger.append (BLOCKED)',
        // In the facts, a thread with no name goes by the id the JDK names it with.
        facts: { threadCount: 4, threads: ['virtual thread #101', 'virtual thread #102', 'virtual thread #103', 'transfer-1'] },
        message: /in all 2 dumps \(10 s\): "transfer-1", 3 more with no name\. Why/,
      },
    ],
  },
  { name: 'negative control: one dump is no series', model: () => modelOf(series([lockOwner, blocked], 1)), expect: [] },
  {
    name: "negative control: dumps of two JVMs (a thread's native id changed) are no series",
    model: () => {
      const m = modelOf(series([lockOwner, blocked], 2, (t) => ({ ...t, nativeId: `0xf${t.name.length}` })));
      expect(m.series).toEqual([]);
      return m;
    },
    expect: [],
  },
  { name: 'negative control: the option asks for three dumps', model: () => modelOf(series([lockOwner, blocked])), options: { minDumps: 3 }, expect: [] },
  { name: 'negative control: idle pool workers wait in one place by design', model: () => modelOf(series([idle, { ...idle, name: 'worker-2' }])), expect: [] },
  {
    name: 'negative control: a thread that moved on between the dumps',
    model: () => modelOf(series([blocked], 2, (t) => ({ ...t, state: 'RUNNABLE', locks: [], frames: ['com.acme.Report.render', 'com.acme.Api.handle'] }))),
    expect: [],
  },
];

describe('stuck-threads: hand-built cases', () => {
  for (const c of CASES) test(c.name, () => void check('stuck-threads', c));
});

describe('stuck-threads on real JVMs', () => {
  test('negative control: one dump is no series', async () => {
    const { findings } = await analyse([`${FIXTURES}/series/dump-1.txt`]);
    expect(byRule(findings, 'stuck-threads')).toEqual([]);
  });
  test('deadlocked threads are reported once, as the deadlock', async () => {
    const { findings } = await analyse([`${FIXTURES}/logs/catalina.out`]);
    expect(byRule(findings, 'stuck-threads')).toEqual([]);
  });
  test('negative control: two captures of the same instant are no series', async () => {
    // jstack and jcmd side by side can land in the same second; a copy of one dump is the sure case.
    const dir = scratchDir('twice');
    const copy = join(dir, 'same-instant.txt');
    writeFileSync(copy, readFileSync(`${FIXTURES}/series/dump-1.txt`));
    const { model, findings } = await analyse([`${FIXTURES}/series/dump-1.txt`, copy]);
    expect(model.series).toEqual([]);
    expect(byRule(findings, 'stuck-threads')).toEqual([]);
  });
});

test('json report of the series fixture (golden)', async () => {
  const { model, findings } = await analyse([1, 2, 3].map((n) => `${FIXTURES}/series/dump-${n}.txt`));
  await expect(renderJson({ tool: TEST_TOOL, model, findings })).toMatchFileSnapshot('../golden/series.json');
});

const sleepingHolder: ThreadSpec = {
  name: 'ledger-owner',
  state: 'TIMED_WAITING',
  detail: 'sleeping',
  frames: ['java.lang.Thread.sleep', 'com.acme.Ledger.settle', 'java.lang.Thread.run'],
  locks: [{ at: 1, kind: 'locked', id: '0x1', className: 'com.acme.Ledger' }],
};
const napper: ThreadSpec = {
  name: 'poller',
  state: 'TIMED_WAITING',
  detail: 'sleeping',
  frames: ['java.lang.Thread.sleep', 'com.acme.Poller.tick', 'java.lang.Thread.run'],
};

const NAPS: Case[] = [
  {
    name: 'a lock holder asleep in the same place in every dump, one thread waiting for it: the holder is stuck, and so is its waiter',
    model: () => modelOf(series([sleepingHolder, blocked, napper])),
    expect: [{ subject: 'com.acme.Ledger.settle (TIMED_WAITING)', facts: { threads: ['ledger-owner'] } }, { subject: 'com.acme.Ledger.append (BLOCKED)' }],
  },
  { name: 'negative control: a thread napping in its loop, holding nothing anyone waits for', model: () => modelOf(series([napper])), expect: [] },
];

describe('stuck-threads: a nap that holds a lock others wait for', () => {
  for (const c of NAPS) test(c.name, () => void check('stuck-threads', c));
});
