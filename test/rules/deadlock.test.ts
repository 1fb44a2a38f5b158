/**
 * deadlock: hand-built cycles (the rule's cases and controls), then the real JVM's: a cycle seen in
 * two dumps is one finding, a format without the JVM's report does not blame the JVM, and the text
 * report's golden file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { Chalk } from 'chalk';
import { describe, expect, test } from 'vitest';

import { renderText } from '../../src/report/text.js';
import { analyse, byRule, FIXTURES, scratchDir, TEST_TOOL } from '../helpers.js';
import { type Case, check, many, modelOf, type ThreadSpec } from './build.js';

/** A thread in `method` holding monitor `holds` and blocked on monitor `waits`. */
const crossed = (name: string, holds: string, waits: string, method = 'com.acme.Ledger.transfer'): ThreadSpec => ({
  name,
  state: 'BLOCKED',
  detail: 'on object monitor',
  frames: [method, 'java.lang.Thread.run'],
  locks: [
    { at: 0, kind: 'waiting-to-lock', id: waits, className: 'com.acme.Account' },
    { at: 0, kind: 'locked', id: holds, className: 'com.acme.Account' },
  ],
});

const CASES: Case[] = [
  {
    name: 'two threads each holding the monitor the other waits for',
    model: () => modelOf([{ threads: [crossed('teller-1', '0x1', '0x2'), crossed('teller-2', '0x2', '0x1')] }]),
    expect: [
      {
        subject: 'teller-1 <-> teller-2',
        severity: 'critical',
        facts: { threadCount: 2, reportedByJvm: false, confidence: 'certain', heldUpCount: 0 },
        message: /the JVM did not report it/,
      },
    ],
  },
  {
    name: 'threads blocked behind a cycle are named as held up by it',
    model: () =>
      modelOf([
        {
          threads: [
            crossed('teller-1', '0x1', '0x2'),
            crossed('teller-2', '0x2', '0x1'),
            ...many(3, 'audit-', () => ({
              state: 'BLOCKED',
              frames: ['com.acme.Audit.read'],
              locks: [{ at: 0, kind: 'waiting-to-lock', id: '0x1', className: 'com.acme.Account' }],
            })),
          ],
        },
      ]),
    expect: [{ subject: 'teller-1 <-> teller-2', facts: { heldUpCount: 3, heldUp: ['audit-1', 'audit-2', 'audit-3'] } }],
  },
  {
    name: 'negative control: a lock held and waited for, with no cycle',
    model: () =>
      modelOf([
        {
          threads: [
            {
              name: 'owner',
              state: 'TIMED_WAITING',
              detail: 'sleeping',
              frames: ['java.lang.Thread.sleep', 'com.acme.Ledger.close'],
              locks: [{ at: 1, kind: 'locked', id: '0x1', className: 'com.acme.Account' }],
            },
            crossed('teller', '0x2', '0x1'),
          ],
        },
      ]),
    expect: [],
  },
  { name: 'negative control: no threads at all', model: () => modelOf([]), expect: [] },
];

describe('deadlock: hand-built cases', () => {
  for (const c of CASES) test(c.name, () => void check('deadlock', c));

  test('finding ids are unique when two JVMs have the same deadlocked thread names', () => {
    // Two JVMs of one program: same names, other thread ids, so two cycles and two findings.
    const jvm = (id: number) => [
      { ...crossed('teller-1', '0x1', '0x2'), javaId: `${id}` },
      { ...crossed('teller-2', '0x2', '0x1'), javaId: `${id + 1}` },
    ];
    const found = check('deadlock', {
      name: 'two JVMs',
      model: () =>
        modelOf([
          { threads: jvm(10), source: 'a.txt' },
          { threads: jvm(20), source: 'b.txt' },
        ]),
      expect: [{ subject: 'teller-1 <-> teller-2' }, { subject: 'teller-1 <-> teller-2' }],
    });
    expect(found.map((f) => f.id)).toEqual(['deadlock:teller-1 <-> teller-2', 'deadlock:teller-1 <-> teller-2 #2']);
  });
});

describe('deadlock on real JVMs', () => {
  test('negative control: contention without a cycle', async () => {
    const { findings } = await analyse([`${FIXTURES}/contention/dump-1.txt`]);
    expect(byRule(findings, 'deadlock')).toEqual([]);
  });
  test('the same cycle in two dumps of a series is one finding', async () => {
    const { findings } = await analyse([`${FIXTURES}/logs/catalina.out`]);
    const d = byRule(findings, 'deadlock');
    expect(d.length).toBe(1);
    expect(d[0]!.facts['dumps']).toEqual([0, 1]);
  });
  test('a format with no JVM deadlock report does not say the JVM missed the cycle', async () => {
    // jcmd JSON never carries the report; the jstack dump of the same JVM does, and the JVM reported these.
    const json = byRule((await analyse([`${FIXTURES}/deadlock/jdk25-threads.json`])).findings, 'deadlock').filter((f) => f.facts['confidence'] === 'certain');
    expect(json.length).toBeGreaterThan(0);
    for (const f of json) expect(f.message).not.toMatch(/did not report/);
    // Negative control: the real jstack dump cut before the JVM's report (as a truncated file is) says it.
    const text = readFileSync(`${FIXTURES}/deadlock/dump-1.txt`, 'utf8');
    const withoutReport = text.slice(0, text.indexOf('Found one Java-level deadlock'));
    const dir = scratchDir('deadlock');
    writeFileSync(join(dir, 'dump.txt'), withoutReport);
    const hotspot = byRule((await analyse([join(dir, 'dump.txt')])).findings, 'deadlock').filter((f) => f.facts['confidence'] === 'certain');
    expect(hotspot.length).toBeGreaterThan(0);
    for (const f of hotspot) expect(f.message).toMatch(/\(the JVM did not report it\)/);
  });
  test('text report of the deadlock fixture (golden)', async () => {
    const { model, findings } = await analyse([`${FIXTURES}/deadlock/dump-1.txt`]);
    const text = renderText({ tool: TEST_TOOL, model, findings }, new Chalk({ level: 0 }));
    await expect(text).toMatchFileSnapshot('../golden/deadlock.text.txt');
  });
});

describe('deadlock reports of threads that share names', () => {
  test('each finding cites its own JVM report: two pairs of "worker-A" and "worker-B" (a real JVM)', async () => {
    const { findings } = await analyse([join(FIXTURES, 'same-names', 'dump-1.txt')]);
    const deadlocks = findings.filter((f) => f.rule === 'deadlock');
    expect(deadlocks).toHaveLength(2);
    const reportLines = deadlocks.map((f) => f.evidence.filter((e) => e.kind === 'jvm-report').map((e) => e.line));
    expect(reportLines.map((l) => l.length)).toEqual([1, 1]);
    expect(new Set(reportLines.flat()).size).toBe(2);
    for (const f of deadlocks) expect(f.facts['reportedByJvm']).toBe(true);
  });
});
