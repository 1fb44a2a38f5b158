/**
 * class-init-wait on a real JVM (fixtures/generate-runtime-incidents.sh, dumped by JDK 17 and by
 * JDK 25): a cycle of two static initialisers, which the JVM's deadlock detector does not report,
 * and three request threads behind a static initialiser that waits for a configuration server;
 * the class whose slow initialiser finished is the control. Its silence on the other fixture incidents is in test/incidents/expected-rules.test.ts.
 */
import { join } from 'node:path';

import { describe, expect, test } from 'vitest';

import { defaultConfig } from '../../src/engine/config.js';
import { runRules } from '../../src/engine/run-rules.js';
import { causalSummary } from '../../src/report/causal-summary.js';
import { RULES } from '../../src/rules/index.js';
import { analyseIncident, INCIDENTS, truthOf } from '../helpers.js';
import { type Case, check, many, modelOf, type ThreadSpec } from './build.js';

type Found = {
  rule: string;
  subject: string;
  severity: string;
  message: string;
  facts: Record<string, unknown>;
  evidence: Array<{ kind: string; thread?: string }>;
};
const initFindings = (findings: readonly { rule: string }[]) => findings.filter((f) => f.rule === 'class-init-wait') as Found[];

describe('class-init-wait', { timeout: 60_000 }, () => {
  for (const name of ['class-init-waits', 'class-init-waits-jdk25']) {
    const dir = join(INCIDENTS, name);
    const truth = truthOf(name) as {
      jdk: string;
      facts: { cycle: string[]; cycleClasses: string[]; slowClass: string; initialiser: string; waiters: number; waiterPrefix: string; control: string };
    };
    test(`${name} (${truth.jdk}): the cycle as a deadlock, the slow initialiser with its waiters, not the control`, async () => {
      const { findings } = await analyseIncident(dir);
      const found = initFindings(findings);
      const cycle = found.find((f) => f.subject.startsWith('class initialisation cycle'))!;
      expect(cycle.severity).toBe('critical');
      expect([...(cycle.facts['threads'] as string[])].sort()).toEqual([...truth.facts.cycle].sort());
      expect([...(cycle.facts['classes'] as string[])].sort()).toEqual([...truth.facts.cycleClasses].sort());
      // The JVM reports no deadlock here; the deadlock rule (monitors and locks) has none either.
      expect(findings.filter((f) => f.rule === 'deadlock')).toEqual([]);
      const slow = found.find((f) => f.subject === truth.facts.slowClass)!;
      expect(slow.severity).toBe('warning');
      expect(slow.facts['initialiser']).toBe(truth.facts.initialiser);
      expect(slow.facts['waiterCount']).toBe(truth.facts.waiters);
      expect((slow.facts['waiters'] as string[]).every((w) => w.startsWith(truth.facts.waiterPrefix))).toBe(true);
      expect(found).toHaveLength(2);
      expect(JSON.stringify(found)).not.toContain(truth.facts.control);
    });
  }

  test('the waiters are blocked (on another thread), though the dump says RUNNABLE', async () => {
    const { model } = await analyseIncident(join(INCIDENTS, 'class-init-waits'));
    const last = model.dumps.length - 1;
    const waiter = model.dumps[last]!.threads.findIndex((t) => t.name === 'http-nio-8080-exec-1');
    expect(model.dumps[last]!.threads[waiter]!.state).toBe('RUNNABLE');
    expect(model.activity[last]![waiter]).toMatchObject({
      activity: 'blocked',
      basis: 'class-init',
      reason: expect.stringMatching(/RemoteConfig to be initialised/),
    });
    // The rule finds its waiters by that basis: every thread with a class-initialisation lock line has it, and no other.
    model.dumps.forEach((d, k) =>
      d.threads.forEach((th, i) => expect(model.activity[k]![i]!.basis === 'class-init', th.name).toBe(th.locks.some((l) => l.kind === 'waiting-class-init'))),
    );
  });
});

/** A thread that waits for `cls`'s initialisation from `frames` (top first). */
const waitsFor = (name: string, cls: string, frames: string[]): ThreadSpec => ({
  name,
  state: 'RUNNABLE',
  frames,
  locks: [{ at: 0, kind: 'waiting-class-init', id: '', className: cls }],
});
const loader: ThreadSpec = {
  name: 'config-loader',
  state: 'WAITING',
  detail: 'parking',
  frames: [
    'jdk.internal.misc.Unsafe.park(Native Method)',
    'java.util.concurrent.locks.LockSupport.park',
    'java.util.concurrent.CountDownLatch.await',
    'com.acme.Config$Remote.<clinit>',
    'com.acme.Config.load',
    'java.lang.Thread.run',
  ],
};
const requests = (n: number) =>
  many(n, 'http-nio-8080-exec-', (name) => waitsFor(name, 'com.acme.Config$Remote', ['com.acme.Api.handle', 'java.lang.Thread.run']));

const CYCLE = 'class initialisation cycle: com.acme.PriceTable, com.acme.TaxRules';
/** Two initialisers waiting for each other, and three requests that touch one of their classes. */
const cycleWithCallers = (): ThreadSpec[] => [
  waitsFor('pricing-init', 'com.acme.TaxRules', ['com.acme.PriceTable.<clinit>', 'com.acme.Main.prices', 'java.lang.Thread.run']),
  waitsFor('tax-init', 'com.acme.PriceTable', ['com.acme.TaxRules.<clinit>', 'com.acme.Main.taxes', 'java.lang.Thread.run']),
  ...many(3, 'http-nio-8080-exec-', (name) => waitsFor(name, 'com.acme.PriceTable', ['com.acme.Api.quote', 'java.lang.Thread.run'])),
];

const CASES: Case[] = [
  {
    name: 'three requests behind a static initialiser that waits for a latch',
    model: () => modelOf([{ threads: [loader, ...requests(3)] }]),
    expect: [{ subject: 'com.acme.Config$Remote', severity: 'warning', facts: { initialiser: 'config-loader', waiterCount: 3 } }],
  },
  {
    name: 'two initialisers waiting for each other: a cycle the JVM does not report',
    model: () =>
      modelOf([
        {
          threads: [
            waitsFor('pricing-init', 'com.acme.TaxRules', ['com.acme.PriceTable.<clinit>', 'com.acme.Main.prices', 'java.lang.Thread.run']),
            waitsFor('tax-init', 'com.acme.PriceTable', ['com.acme.TaxRules.<clinit>', 'com.acme.Main.taxes', 'java.lang.Thread.run']),
          ],
        },
      ]),
    expect: [
      {
        subject: 'class initialisation cycle: com.acme.PriceTable, com.acme.TaxRules',
        severity: 'critical',
        facts: { classes: ['com.acme.TaxRules', 'com.acme.PriceTable'] },
      },
    ],
  },
  {
    // Issue 46: the waiters of a class in a cycle were a critical finding of their own beside the cycle's.
    name: 'requests behind a class of a cycle: critical, and caused by the cycle',
    model: () => modelOf([{ threads: cycleWithCallers() }]),
    expect: [
      { subject: CYCLE, severity: 'critical' },
      { subject: 'com.acme.PriceTable', severity: 'critical', facts: { waiterCount: 3 }, causedBy: [`class-init-wait:${CYCLE}`] },
    ],
  },
  {
    name: 'negative control: requests behind an initialiser outside any cycle have no cause',
    model: () => modelOf([{ threads: [loader, ...requests(3)] }]),
    expect: [{ subject: 'com.acme.Config$Remote', causedBy: [] }],
  },
  { name: 'negative control: an initialiser nobody waits for', model: () => modelOf([{ threads: [loader] }]), expect: [] },
];

describe('class-init-wait: hand-built cases', () => {
  for (const c of CASES) test(c.name, () => void check('class-init-wait', c));

  // One cycle is one root cause: over a series, the threads stuck in it and behind it (stuck-threads)
  // and the callers of its classes (class-init-wait) all sit under the cycle in the summary.
  test("a cycle over three dumps is the summary's one root cause", () => {
    const at = ['2026-12-07T10:00:00', '2026-12-07T10:00:05', '2026-12-07T10:00:10'];
    const findings = runRules(modelOf(at.map((t) => ({ threads: cycleWithCallers(), at: t }))), RULES, defaultConfig(RULES));
    const roots = causalSummary(findings).causes.map((c) => c.finding.id);
    expect(roots).toEqual([`class-init-wait:${CYCLE}`]);
    expect(findings.filter((f) => f.rule === 'stuck-threads').length).toBeGreaterThan(0);
    expect(findings.filter((f) => f.severity === 'critical' && f.causedBy.length === 0).map((f) => f.id)).toEqual([`class-init-wait:${CYCLE}`]);
  });
});
