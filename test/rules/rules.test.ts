/** Each rule: positive cases and negative controls on real fixtures, plus the text report golden file. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chalk } from 'chalk';
import { describe, expect, test } from 'vitest';
import { analyse, FIXTURES } from '../helpers.js';
import { renderText } from '../../src/report/text.js';
import { renderJson } from '../../src/report/json.js';
import { resolveConfig } from '../../src/engine/config.js';
import { RULES } from '../../src/rules/index.js';
import { runRules } from '../../src/engine/run-rules.js';
import type { Finding } from '../../src/model/findings.js';

const rulesOf = (fs: readonly Finding[], rule: string): Finding[] => fs.filter((f) => f.rule === rule);

describe('executor-saturated', () => {
  test('the saturated pool is found, the half-busy one is not', async () => {
    const { findings } = await analyse([`${FIXTURES}/pool/dump-1.txt`]);
    const sat = rulesOf(findings, 'executor-saturated');
    expect(sat.map((f) => f.subject)).toEqual(['biz-pool']);
    expect(sat[0]!.facts).toMatchObject({ workers: 4, busy: 4, idle: 0 });
  });
  test('busy workers queued on one lock name that contention as the cause; workers busy elsewhere name none', async () => {
    const { model } = await analyse([`${FIXTURES}/contention/dump-1.txt`]);
    // The waiters are numbered threads (`monitor-waiter-N`), judged only with this option.
    const config = resolveConfig(RULES, { rules: { 'executor-saturated': ['warning', { minWorkersOtherNames: 2 }] } }, 'test');
    const findings = runRules(model, RULES, config);
    const contentionOn = (cls: string) => rulesOf(findings, 'lock-contention').find((f) => f.subject.startsWith(`${cls}@`))!.id;
    const sat = new Map(rulesOf(findings, 'executor-saturated').map((f) => [f.subject, f.causedBy]));
    expect([...sat.keys()].sort()).toEqual(['monitor-waiter', 'rlock-waiter']);
    expect(sat.get('monitor-waiter')).toEqual([contentionOn('SharedCache')]);
    expect(sat.get('rlock-waiter')).toEqual([contentionOn('java.util.concurrent.locks.ReentrantLock$NonfairSync')]);
    const pool = rulesOf((await analyse([`${FIXTURES}/pool/dump-1.txt`])).findings, 'executor-saturated');
    expect(pool[0]!.causedBy).toEqual([]);
  });
  test('deadlocked threads with numbered names are not a pool', async () => {
    const { findings } = await analyse([`${FIXTURES}/deadlock/dump-1.txt`]);
    expect(rulesOf(findings, 'executor-saturated')).toEqual([]);
  });
});

describe('lock-contention', () => {
  test('negative control: two waiters are not contention', async () => {
    const { findings } = await analyse([`${FIXTURES}/threadinfo/Dubbo_JStack.log`]);
    expect(rulesOf(findings, 'lock-contention')).toEqual([]);
  });
  test('the threshold is an option', async () => {
    const { model } = await analyse([`${FIXTURES}/threadinfo/Dubbo_JStack.log`]);
    const config = resolveConfig(RULES, { rules: { 'lock-contention': ['warning', { minWaiters: 2 }] } }, 'test');
    const f = rulesOf(runRules(model, RULES, config), 'lock-contention');
    expect(f.map((x) => x.facts['owner'])).toEqual(['inventory-holder']);
  });
});

describe('lock-contention across a series', () => {
  // Hand-modified copies of a real dump (a format edge case): three dumps of one JVM, seconds apart,
  // where a compacting GC moved the contended SharedCache monitor before the second dump.
  async function series(moveInSecond: boolean, otherOwnerInSecond = false) {
    const { mkdtempSync, readFileSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const text = readFileSync(`${FIXTURES}/contention/dump-1.txt`, 'utf8');
    const dir = mkdtempSync(join(tmpdir(), 'dumpsleuth-moved-'));
    const files = [0, 1, 2].map((i) => {
      let t = text.replace('2026-11-30 09:30:43', `2026-11-30 09:30:4${3 + i * 2}`);
      if (i === 1 && moveInSecond) t = t.replaceAll('0x00000000ffd7f130', '0x00000000ffe00008');
      if (i === 1 && otherOwnerInSecond) t = t.replace('"monitor-holder" #12', '"another-holder" #12');
      const f = join(dir, `dump-${i + 1}.txt`);
      writeFileSync(f, t);
      return f;
    });
    return rulesOf((await analyse(files)).findings, 'lock-contention').filter((f) => String(f.facts['lockClass']) === 'SharedCache');
  }

  test('the same monitor in three dumps is one finding', async () => {
    const f = await series(false);
    expect(f.length).toBe(1);
    expect(f[0]!.facts['dumps']).toEqual([0, 1, 2]);
  });

  test('moved by a GC between dumps (same class, same owner): still one finding, both addresses named', async () => {
    const f = await series(true);
    expect(f.length).toBe(1);
    expect(f[0]!.facts['dumps']).toEqual([0, 2, 1]);
    expect(f[0]!.facts['lockIds']).toEqual(['0x00000000ffd7f130', '0x00000000ffe00008']);
  });

  test('negative control: a new address held by another thread is another contention', async () => {
    const f = await series(true, true);
    expect(f.length).toBe(2);
    expect(f.map((x) => x.facts['owner']).sort()).toEqual(['another-holder', 'monitor-holder']);
  });
});

describe('deadlock', () => {
  test('negative control: contention without a cycle', async () => {
    const { findings } = await analyse([`${FIXTURES}/contention/dump-1.txt`]);
    expect(rulesOf(findings, 'deadlock')).toEqual([]);
  });
  test('the same cycle in two dumps of a series is one finding', async () => {
    const { findings } = await analyse([`${FIXTURES}/logs/catalina.out`]);
    const d = rulesOf(findings, 'deadlock');
    expect(d.length).toBe(1);
    expect(d[0]!.facts['dumps']).toEqual([0, 1]);
  });
  test('a format with no JVM deadlock report does not say the JVM missed the cycle', async () => {
    // jcmd JSON never carries the report; the jstack dump of the same JVM does, and the JVM reported these.
    const json = rulesOf((await analyse([`${FIXTURES}/deadlock/jdk25-threads.json`])).findings, 'deadlock').filter((f) => f.facts['confidence'] === 'certain');
    expect(json.length).toBeGreaterThan(0);
    for (const f of json) expect(f.message).not.toMatch(/did not report/);
    // Negative control: the real jstack dump cut before the JVM's report (as a truncated file is) says it.
    const text = readFileSync(`${FIXTURES}/deadlock/dump-1.txt`, 'utf8');
    const withoutReport = text.slice(0, text.indexOf('Found one Java-level deadlock'));
    const dir = mkdtempSync(join(tmpdir(), 'dumpsleuth-deadlock-'));
    writeFileSync(join(dir, 'dump.txt'), withoutReport);
    const hotspot = rulesOf((await analyse([join(dir, 'dump.txt')])).findings, 'deadlock').filter((f) => f.facts['confidence'] === 'certain');
    expect(hotspot.length).toBeGreaterThan(0);
    for (const f of hotspot) expect(f.message).toMatch(/\(the JVM did not report it\)/);
  });
});

describe('stuck-threads', () => {
  test('negative control: one dump is no series', async () => {
    const { findings } = await analyse([`${FIXTURES}/series/dump-1.txt`]);
    expect(rulesOf(findings, 'stuck-threads')).toEqual([]);
  });
  test('negative control: dumps of two different JVMs of the same JDK are no series', async () => {
    const { model, findings } = await analyse([`${FIXTURES}/series/dump-1.txt`, `${FIXTURES}/contention/dump-1.txt`]);
    expect(model.series).toEqual([]);
    expect(rulesOf(findings, 'stuck-threads')).toEqual([]);
  });
  test('deadlocked threads are reported once, as the deadlock', async () => {
    const { findings } = await analyse([`${FIXTURES}/logs/catalina.out`]);
    expect(rulesOf(findings, 'stuck-threads')).toEqual([]);
  });
  test('negative control: two captures of the same instant are no series', async () => {
    // jstack and jcmd side by side can land in the same second; a copy of one dump is the sure case.
    const dir = mkdtempSync(join(tmpdir(), 'dumpsleuth-twice-'));
    const copy = join(dir, 'same-instant.txt');
    writeFileSync(copy, readFileSync(`${FIXTURES}/series/dump-1.txt`));
    const { model, findings } = await analyse([`${FIXTURES}/series/dump-1.txt`, copy]);
    expect(model.series).toEqual([]);
    expect(rulesOf(findings, 'stuck-threads')).toEqual([]);
  });
});

test('finding ids are unique even when two JVMs have the same deadlocked thread names', async () => {
  // jstack of the JDK 17 run and JSON of the JDK 25 run of the same program: two JVMs, same names.
  const { findings } = await analyse([`${FIXTURES}/deadlock/dump-1.txt`, `${FIXTURES}/deadlock/jdk25-threads.json`]);
  const mon = findings.filter((f) => f.subject === 'mon-1 <-> mon-2');
  expect(mon.length).toBe(2);
  const ids = findings.map((f) => f.id);
  expect(new Set(ids).size).toBe(ids.length);
});

describe('reports', () => {
  test('text report of the deadlock fixture (golden)', async () => {
    const { model, findings } = await analyse([`${FIXTURES}/deadlock/dump-1.txt`]);
    const text = renderText({ tool: { name: 'dumpsleuth', version: '0.0.0-test' }, model, findings }, new Chalk({ level: 0 }));
    await expect(text).toMatchFileSnapshot('../golden/deadlock.text.txt');
  });
  test('json report of the series fixture (golden)', async () => {
    const { model, findings } = await analyse([1, 2, 3].map((n) => `${FIXTURES}/series/dump-${n}.txt`));
    await expect(renderJson({ tool: { name: 'dumpsleuth', version: '0.0.0-test' }, model, findings })).toMatchFileSnapshot('../golden/series.json');
  });
  test('terminal control sequences in thread names are stripped from text', async () => {
    // A real dump with one thread renamed: Java allows any character in a thread name.
    const evil = 'monitor-\u001b]0;owned\u0007\u001b[2Jholder';
    const dir = mkdtempSync(join(tmpdir(), 'dumpsleuth-evil-'));
    const path = join(dir, 'dump.txt');
    writeFileSync(path, readFileSync(`${FIXTURES}/contention/dump-1.txt`, 'utf8').replaceAll('"monitor-holder"', `"${evil}"`));
    const { model, findings } = await analyse([path]);
    expect(model.dumps[0]!.threads.some((t) => t.name === evil)).toBe(true);
    const text = renderText({ tool: { name: 'dumpsleuth', version: 't' }, model, findings }, new Chalk({ level: 0 }));
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(text).toContain('held by "monitor-holder"');
  });
});
