/**
 * Ground truth from real JVMs (fixtures/generate-threads.sh): the programs know which threads they
 * created, in which state, holding what; the parsers and analyses must find exactly that.
 */
import { describe, expect, test } from 'vitest';

import { buildLockGraph } from '../../src/threads/lock-graph.js';
import { classifyDump } from '../../src/threads/thread-activity.js';
import { findThreadPools } from '../../src/threads/thread-pools.js';
import { analyse, FIXTURES, load, truth } from '../helpers.js';

const SCENARIOS = ['deadlock', 'pool', 'contention', 'series', 'logs', 'threadinfo'] as const;

describe.each(SCENARIOS)('fixture %s', (scenario) => {
  test('every named thread has the state the program put it in', async () => {
    const t = await truth(scenario);
    for (const file of Object.keys(t.files)) {
      const { file: parsed } = await load(`${FIXTURES}/${scenario}/${file}`);
      expect(parsed.dumps.length, file).toBe(t.files[file].dumps);
      for (const dump of parsed.dumps) {
        expect(dump.unparsedCount, `${file} unparsed: ${JSON.stringify(dump.unparsed.slice(0, 3))}`).toBe(0);
        const byName = new Map(dump.threads.map((th) => [th.name, th]));
        const expected = file.startsWith('jdk25') ? t.threadsJdk25 : t.threads;
        for (const [name, want] of Object.entries<any>(expected)) {
          expect(byName.get(name)?.state, `${file} ${name}`).toBe(want.state);
        }
      }
    }
  });
});

test('deadlocks: all four cycles, three reported by the JVM, the read-lock one inferred', async () => {
  const t = await truth('deadlock');
  const { file } = await load(`${FIXTURES}/deadlock/dump-1.txt`);
  const dump = file.dumps[0]!;
  expect(dump.jvmDeadlocks.length).toBe(t.jvmReportedDeadlockCount);
  const graph = buildLockGraph(dump);
  const found = graph.cycles.map((c) => ({ threads: c.threads.map((i) => dump.threads[i]!.name).sort(), reported: c.reportedByJvm }));
  const want = t.deadlocks.map((d: any) => ({ threads: [...d.threads].sort(), reported: d.reportedByJvm }));
  expect(found.sort((a, b) => a.threads[0]!.localeCompare(b.threads[0]!))).toEqual(want.sort((a: any, b: any) => a.threads[0].localeCompare(b.threads[0])));
  const inferred = graph.cycles.find((c) => c.confidence === 'possible')!;
  expect(inferred.threads.map((i) => dump.threads[i]!.name).sort()).toEqual(['rw-reader', 'rw-writer']);
});

test('pools: busy and idle workers per pool, from names and stacks', async () => {
  const t = await truth('pool');
  for (const file of ['dump-1.txt', 'jdk25-dump-1.txt', 'jdk25-threads.json']) {
    const { file: parsed } = await load(`${FIXTURES}/pool/${file}`);
    const dump = parsed.dumps[0]!;
    const pools = findThreadPools(dump, classifyDump(dump, buildLockGraph(dump)));
    for (const want of t.pools) {
      const got = pools.find((p) => p.name === want.name);
      expect(got, `${file} ${want.name} among ${pools.map((p) => p.name)}`).toBeDefined();
      expect(got!.threads.length, `${file} ${want.name}`).toBe(want.workers);
      // The JSON dump has no ownable synchronizers, so busy/idle come from stacks alone there too.
      expect(got!.busy.length, `${file} ${want.name} busy`).toBe(want.busy);
      expect(got!.idle.length, `${file} ${want.name} idle`).toBe(want.idle);
      if (want.busyThreads) expect(got!.busy.map((i) => dump.threads[i]!.name).sort()).toEqual([...want.busyThreads].sort());
    }
  }
});

test('contention: owner and waiters of each contended lock', async () => {
  const t = await truth('contention');
  const { model, findings } = await analyse([`${FIXTURES}/contention/dump-1.txt`]);
  for (const want of t.contention) {
    const lock = model.locks.contended.find((l) => l.owner?.name === want.owner)!;
    expect(lock, want.owner).toBeDefined();
    expect(lock.waiters.length).toBe(want.waiters);
    expect(lock.lock.className.endsWith(want.lockClass)).toBe(true);
    if (want.waiterThreads) expect(lock.waiters.map((w) => w.name).sort()).toEqual([...want.waiterThreads].sort());
    const f = findings.find((x) => x.rule === 'lock-contention' && x.facts['owner'] === want.owner)!;
    expect(f.facts['waiters']).toBe(want.waiters);
  }
  expect(findings.filter((f) => f.rule === 'deadlock')).toEqual([]);
});

describe.each([
  ['JDK 17', ''],
  ['JDK 25', 'jdk25-'],
])('series on %s', (_jdk, prefix) => {
  test('stuck threads are flagged; progressing, idle and sleeping-loop ones are not', async () => {
    const t = await truth('series');
    const { model, findings } = await analyse([1, 2, 3].map((n) => `${FIXTURES}/series/${prefix}dump-${n}.txt`));
    expect(model.series.length).toBe(1);
    expect(model.series[0]!.dumps.length).toBe(3);
    const stuck = findings.filter((f) => f.rule === 'stuck-threads').flatMap((f) => f.facts['threads'] as string[]);
    expect(stuck.sort()).toEqual([...t.stuck].sort());
    for (const name of [...t.progressing, ...t.idle, ...t.sleepingLoops]) expect(stuck).not.toContain(name);
    // Every thread is matched in all three dumps even though cpu= and elapsed= changed.
    const matched = model.series[0]!.threads.filter((s) => s.indexes.every((i) => i !== null));
    expect(matched.length).toBe(model.dumps[0]!.threads.length);
  });
});

test('JDK 25 JSON: monitor deadlocks from blockedOn and monitorsOwned alone', async () => {
  const t = await truth('deadlock');
  const { file } = await load(`${FIXTURES}/deadlock/jdk25-threads.json`);
  const dump = file.dumps[0]!;
  const found = buildLockGraph(dump).cycles.map((c) =>
    c.threads
      .map((i) => dump.threads[i]!.name)
      .sort()
      .join(' '),
  );
  // JDK 25.0.3 writes no owner for a park blocker, so only the monitor cycles can be seen in its JSON.
  const monitorCycles = t.deadlocks.filter((d: any) => d.kind === 'monitor').map((d: any) => [...d.threads].sort().join(' '));
  expect(found.sort()).toEqual(monitorCycles.sort());
});

test('kill -3 into a log: both dumps found between log lines, with their timestamps', async () => {
  const t = await truth('logs');
  const { file } = await load(`${FIXTURES}/logs/catalina.out`);
  expect(file.dumps.length).toBe(2);
  expect(file.dumps.map((d) => d.timestampIso !== undefined)).toEqual([true, true]);
  expect(file.dumps[0]!.timestampIso! < file.dumps[1]!.timestampIso!).toBe(true);
  expect(file.outsideLines).toBeGreaterThanOrEqual(t.files['catalina.out'].logEntries);
  for (const d of file.dumps) expect(d.jvmDeadlocks.length).toBe(t.jvmReportedDeadlockCount);
});

test('ThreadInfo (Dubbo_JStack.log): truncated stacks, owners from the header', async () => {
  const t = await truth('threadinfo');
  const { file } = await load(`${FIXTURES}/threadinfo/Dubbo_JStack.log`);
  const dump = file.dumps[0]!;
  expect(dump.format).toBe('threadinfo');
  expect(dump.threads.length).toBe(t.files['Dubbo_JStack.log'].threadInfos);
  expect(dump.threads.filter((th) => th.stackTruncated).length).toBe(t.files['Dubbo_JStack.log'].truncatedStacks);
  const graph = buildLockGraph(dump);
  for (const want of t.contention) {
    const node = graph.locks.find((n) => n.owner !== null && dump.threads[n.owner]!.name === want.owner);
    expect(node, want.owner).toBeDefined();
    expect(node!.waiters.length).toBe(want.waiters);
  }
});
