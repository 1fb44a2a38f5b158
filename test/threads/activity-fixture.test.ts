/**
 * The activity classifier on a real JVM's threads in the idioms it must tell apart
 * (fixtures/programs/activity/Activity.java, truth.json written by the program), and on named
 * threads of the third-party corpus (read in place; skipped when absent), with verdict and reason.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, test } from 'vitest';

import { analyse, CORPUS, corpusAvailable, FIXTURES, truth } from '../helpers.js';

describe('activity fixture (a real JVM, three dumps a second apart)', async () => {
  const t = await truth('activity');
  const { model, findings } = await analyse([1, 2, 3].map((n) => `${FIXTURES}/activity/dump-${n}.txt`));
  test.each(Object.entries(t.threads as Record<string, { activity: string; why: string }>))('%s', (name, want) => {
    model.dumps.forEach((d, di) => {
      const i = d.threads.findIndex((th) => th.name === name);
      expect(i, `${name} in dump ${di}`).toBeGreaterThanOrEqual(0);
      const v = model.activity[di]![i]!;
      expect(v.activity, `${name} in dump ${di}: ${v.reason} (truth: ${want.why})`).toBe(want.activity);
      expect(v.reason.length).toBeGreaterThan(10);
    });
  });
  test('the I/O stall: the workers stuck in their socket read in every dump, and their pool saturated', () => {
    const stuck = findings.filter((f) => f.rule === 'stuck-threads').flatMap((f) => f.facts['threads'] as string[]);
    expect(stuck).toEqual(expect.arrayContaining(['io-worker-1', 'io-worker-2', 'io-worker-3']));
    expect(findings.filter((f) => f.rule === 'executor-saturated').map((f) => f.subject)).toEqual(['io']);
  });
  test('negative controls: no idle thread is stuck, and idle look-alikes are no saturated pool', () => {
    const stuck = new Set(findings.filter((f) => f.rule === 'stuck-threads').flatMap((f) => f.facts['threads'] as string[]));
    const idle = Object.entries(t.threads as Record<string, { activity: string }>)
      .filter(([, w]) => w.activity === 'idle')
      .map(([n]) => n);
    expect(idle.length).toBeGreaterThan(8);
    for (const n of idle) expect(stuck.has(n), n).toBe(false);
    const consumers = model.executors.find((e) => e.name === 'queue-consumer');
    expect(consumers?.idle).toBe(4);
  });
});

/** Named corpus threads: what a senior engineer says they are doing (LABELS.md), and the basis we expect. */
const CORPUS_THREADS: ReadonlyArray<{ file: string; thread: string; activity: string; reason: RegExp }> = [
  {
    file: 'yusuke__samurai/BEA/814JRockit.dmp',
    thread: "ExecuteThread: '0' for queue: 'weblogic.kernel.Default'",
    activity: 'idle',
    reason: /WebLogic execute thread waiting for a request/,
  },
  {
    file: 'sparameswaran__threadlogic/jrockit_15_dump.txt',
    thread: "ExecuteThread: '0' for queue: 'weblogic.socket.Muxer'",
    activity: 'idle',
    reason: /muxer/,
  },
  { file: 'sparameswaran__threadlogic/jrockit_15_dump.txt', thread: 'Main Thread', activity: 'idle', reason: /shutdown|life of the JVM/ },
  {
    file: 'aragozin__jvm-tools/jstack.txt',
    thread: 'hz._hzInstance_1_dev.partition-operation.thread-0',
    activity: 'idle',
    reason: /Hazelcast operation thread waiting/,
  },
  { file: 'AdoptOpenJDK__mjprof/test2.txt', thread: 'Worker-100', activity: 'idle', reason: /Eclipse Jobs worker waiting/ },
  { file: 'irockel__tda/hpdump.log', thread: 'ACJH_SOPSI_BAN_01-w13 [container1-361]', activity: 'idle', reason: /next request line/ },
  { file: 'irockel__tda/test.log', thread: 'RMI TCP Connection(23)-127.0.1.1', activity: 'idle', reason: /RMI connection waiting for the next call/ },
  { file: 'irockel__tda/test.log', thread: 'RMI TCP Connection(21)-127.0.1.1', activity: 'housekeeping', reason: /taking this dump/ },
  {
    file: 'parttimenerd__jthreaddump/scenarios/thread-pool-exhaustion/dump-1.txt',
    thread: 'surefire-forkedjvm-command-thread',
    activity: 'housekeeping',
    reason: /Surefire/,
  },
  {
    file: 'parttimenerd__jthreaddump/scenarios/thread-pool-exhaustion/dump-1.txt',
    thread: 'JFR Periodic Tasks',
    activity: 'housekeeping',
    reason: /Flight Recorder/,
  },
  { file: 'parttimenerd__jthreaddump/scenarios/thread-pool-exhaustion/dump-1.txt', thread: 'pool-4-thread-1', activity: 'working', reason: /running/ },
  { file: 'drauf__watson/THREAD-DUMP-1.txt', thread: 'automation-rule-executor:thread-1', activity: 'working', reason: /CountDownLatch inside its work/ },
  { file: 'drauf__watson/THREAD-DUMP-1.txt', thread: 'CHANGE_HISTORY-indexQueue:thread-1', activity: 'working', reason: /running/ },
  { file: 'drauf__watson/THREAD-DUMP-1.txt', thread: 'okhttp-eventsource-stream-[]-0', activity: 'idle', reason: /server-sent-events client/ },
  { file: 'drauf__watson/THREAD-DUMP-1.txt', thread: 'Analytics', activity: 'idle', reason: /own loop .*queue take/ },
  { file: 'drauf__watson/THREAD-DUMP-1.txt', thread: 'ForkJoinPool.commonPool-worker-121', activity: 'idle', reason: /ForkJoinPool worker/ },
  {
    file: 'yusuke__samurai/OpenJDK/17/samurai.core.IdleExample-30091-2021-09-15-17-37-26.dmp',
    thread: 'Monitor Ctrl-Break',
    activity: 'housekeeping',
    reason: /IntelliJ/,
  },
  { file: 'igr__tdv/0001-threaddump.txt.gz', thread: 'DefaultDispatcher-worker-1', activity: 'idle', reason: /coroutine worker/ },
];

describe.runIf(corpusAvailable)('activity of named corpus threads', () => {
  test.each(CORPUS_THREADS.map((r) => [`${r.file}: ${r.thread}`, r] as const))('%s', async (_n, r) => {
    const path = join(CORPUS, r.file);
    expect(existsSync(path), path).toBe(true);
    const { model } = await analyse([path]);
    const di = model.dumps.findIndex((d) => d.threads.some((th) => th.name === r.thread));
    expect(di, `${r.thread} in ${r.file}`).toBeGreaterThanOrEqual(0);
    const v = model.activity[di]![model.dumps[di]!.threads.findIndex((th) => th.name === r.thread)]!;
    expect(v.activity, v.reason).toBe(r.activity);
    expect(v.reason).toMatch(r.reason);
  });
});
if (!corpusAvailable) test.skip(`corpus activity tests SKIPPED: ${CORPUS} does not exist next to this checkout`, () => {});
