/**
 * What each fixture incident must make, rule by rule: the rule ids of its findings, from the whole
 * incident (thread dumps, heap dump, logs) and from its thread dumps alone. Each incident is
 * analysed once for the whole table. A row is the incident's truth (its truth.json, what the program
 * set up): the rule the scenario was made for, the findings that follow from it (a pool behind a
 * starved downstream is saturated; threads held in every dump are stuck), and nothing else. That
 * a rule stays silent on every incident it was not made for is this table's other half.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, test } from 'vitest';

import type { Finding } from '../../src/model/findings.js';
import type { Model } from '../../src/model/model.js';
import { RULES } from '../../src/rules/index.js';
import { analyseIncident, INCIDENTS, truthOf } from '../helpers.js';

interface Row {
  /** The rule ids of the whole incident's findings, each once, sorted. */
  readonly full: readonly string[];
  /** The same from its dump-N.txt files alone. */
  readonly threads: readonly string[];
  readonly why: string;
}

const TABLE: Record<string, Row> = {
  'active-count-leak': {
    full: ['active-count-leak'],
    threads: [],
    why: 'RpcStatus.active = 128 = executes while no thread is inside sayHello; the counter is in the heap only, the idle provider threads say nothing alone',
  },
  'class-init-waits': {
    full: ['class-init-wait', 'stuck-threads'],
    threads: ['class-init-wait', 'stuck-threads'],
    why: 'a cycle of two static initialisers and three requests behind a slow one; their threads stay in place in all three dumps',
  },
  'class-init-waits-jdk25': {
    full: ['class-init-wait'],
    threads: ['class-init-wait'],
    why: 'the same program on JDK 25, one dump: no series, so nothing is stuck',
  },
  'commons-pool2-starvation': {
    full: ['connection-pool-starvation'],
    threads: ['connection-pool-starvation'],
    why: 'all 3 objects borrowed and kept, 9 threads wait in borrowObject',
  },
  'cpu-runaway': {
    full: ['cpu-hot-threads', 'stuck-threads'],
    threads: ['cpu-hot-threads', 'stuck-threads'],
    why: 'one thread spins in one loop: hot, and in the same place in every dump',
  },
  'draining-pool': {
    full: [],
    threads: ['executor-saturated'],
    why: 'a burst being drained: the heap shows a bounded queue with room and no downstream wait; without it, all 8 workers busy is all the dumps show',
  },
  'druid-starvation': {
    full: ['connection-pool-starvation', 'executor-saturated'],
    threads: ['connection-pool-starvation', 'executor-saturated'],
    why: 'the Druid pool lends all 4 connections to exports; order-api-exec is saturated behind it (truth.json alsoExpected)',
  },
  'dubbo26-limit-saturated': {
    full: ['limit-saturated'],
    threads: ['stuck-threads'],
    why: "10 in flight against executes=10 with 10 threads inside: saturation, not a leak; without the heap's counter those threads are only stuck",
  },
  'dubbo3-active-count-leak': {
    full: ['active-count-leak'],
    threads: [],
    why: 'greetAsync counts 16 in flight, nobody is inside; the counter is in the heap only',
  },
  'finalizer-backlog': { full: ['finalizer-backlog'], threads: ['finalizer-backlog'], why: 'the Finalizer is blocked in a finalize() on a held lock' },
  'forkjoin-common-pool-blocked': {
    full: ['cpu-hot-threads', 'executor-saturated', 'forkjoin-saturated', 'stuck-threads'],
    threads: ['cpu-hot-threads', 'executor-saturated', 'forkjoin-saturated', 'stuck-threads'],
    why: 'remote calls block every common-pool worker; the control pool ForkJoinPool-1 computes (truth.json cpuBound), busy and in one place',
  },
  'healthy-light-load': { full: [], threads: [], why: 'the negative control: nothing waits, nothing is exhausted (expected.warnings is empty)' },
  'heap-deadlock': { full: ['deadlock'], threads: ['deadlock'], why: 'a monitor deadlock and a j.u.c. deadlock' },
  'hikari-starvation': {
    full: ['connection-pool-starvation'],
    threads: ['connection-pool-starvation'],
    why: 'all 4 HikariCP connections held, 16 threads wait in ConcurrentBag.borrow',
  },
  'http-pool-starvation': {
    full: ['connection-pool-starvation', 'executor-saturated', 'queue-backlog'],
    threads: ['connection-pool-starvation', 'executor-saturated'],
    why: 'the HttpClient pool allows 5 per route; the provider pool is saturated behind it and its queue (in the heap) holds 1960',
  },
  'httpclient5-starvation': {
    full: ['connection-pool-starvation'],
    threads: ['connection-pool-starvation'],
    why: '25 of 30 report workers wait for a lease of a 5-wide pool',
  },
  'limit-saturated': {
    full: ['limit-saturated'],
    threads: ['stuck-threads'],
    why: "at the executes limit with 32 threads really inside; without the heap's counter those threads are only stuck",
  },
  'log4j2-socket-contention': {
    full: ['lock-contention', 'logging-contention', 'stuck-threads'],
    threads: ['lock-contention', 'logging-contention', 'stuck-threads'],
    why: "Log4j 2's OutputStreamManager held by a thread stuck in a socket write; 11 wait inside their log calls (an error from 10), and stay put",
  },
  'gc-pressure': {
    full: ['gc-overhead', 'stuck-threads'],
    threads: ['gc-overhead', 'stuck-threads'],
    why:
      "a cache holds most of a 64 MiB heap and two request threads allocate in a loop: the collector's threads use most of the CPU " +
      'between the dumps; the allocation loop is one place in every dump; the idle reaper is the control',
  },
  'forkjoin-compute-control': {
    full: [],
    threads: [],
    why: 'the negative control: a ForkJoinPool of 2 computing for one waiting caller, then finishing: busy by design (truth.json computes)',
  },
  'slow-clients-write': {
    full: ['executor-saturated', 'stuck-threads'],
    threads: ['executor-saturated', 'stuck-threads'],
    why: "198 of Tomcat's 200 request workers (its maxThreads) block writing responses to clients that do not read, and stay put; two are free",
  },
  'socket-server-write-jdk25': {
    full: ['executor-saturated', 'stuck-threads'],
    threads: ['executor-saturated', 'stuck-threads'],
    why: 'a plain ServerSocket on a fixed pool of 200 (JDK 25): 198 workers RUNNABLE writing to clients that do not read, and stay put; two are free',
  },
  'idle-server-pool': {
    full: [],
    threads: [],
    why: "the negative control: Tomcat's pool grown to its 200 workers, every one waiting for work",
  },
  'renamed-io-pool': {
    full: ['executor-saturated', 'stuck-threads'],
    threads: ['executor-saturated', 'stuck-threads'],
    why: 'every worker of pool-1 waits in a socket read inside its task, under names the application changed (`pool-1-thread-3 @@ export 3`); they stay put',
  },
  'logging-contention': {
    full: ['lock-contention', 'logging-contention', 'stuck-threads'],
    threads: ['lock-contention', 'logging-contention', 'stuck-threads'],
    why: 'an appender lock whose holder writes to a collector that stopped reading, and a full async queue; the waiters stay put',
  },
  'netty-blocked-event-loops': {
    full: ['io-thread-blocked', 'stuck-threads'],
    threads: ['io-thread-blocked', 'stuck-threads'],
    why: 'three event loops held in the service on a lock and a future, in every dump',
  },
  'okhttp-callers-waiting': {
    full: ['connection-pool-starvation', 'executor-saturated'],
    threads: ['executor-saturated', 'stuck-threads'],
    why: 'the Dispatcher runs 5 calls and queues 35, whose 40 callers wait; only the heap links the callers to the Dispatcher',
  },
  'okhttp-dispatcher-queue': {
    full: ['connection-pool-starvation'],
    threads: ['executor-saturated'],
    why: '35 calls queued in the Dispatcher, visible in the heap only (expected.noCallerBlocked); the dumps show a busy pool',
  },
  'queue-backlog-memory': {
    full: ['executor-saturated', 'memory-leak-suspect', 'memory-waste', 'queue-backlog', 'stuck-threads'],
    threads: ['executor-saturated', 'stuck-threads'],
    why:
      '4 of 4 workers busy and 20,000 tasks queued, which fill the heap; queue and heap need the heap dump. ' +
      "The tasks' payloads are byte arrays the program never writes: most of the heap is all-zero arrays (memory-waste)",
  },
  'scheduled-and-eager-pools': {
    full: ['connection-pool-starvation', 'executor-saturated', 'queue-backlog', 'stuck-threads'],
    threads: ['connection-pool-starvation', 'executor-saturated', 'stuck-threads'],
    why: 'the eager and the ArrayBlockingQueue pools saturated (that queue full), a semaphore exhausted; the idle scheduled pool is no backlog',
  },
  'session-cache-leak': {
    full: ['memory-leak-suspect', 'memory-waste'],
    threads: [],
    why: "a static map nobody empties; the request threads are idle. The sessions' attributes are byte arrays never written: all-zero (memory-waste)",
  },
  'shutdown-ordering': {
    full: ['shutdown-ordering'],
    threads: ['executor-saturated', 'shutdown-ordering'],
    why: "Dubbo's and Spring's hooks race with requests in flight; without the heap the provider pool's busy workers look saturated",
  },
  'thread-leak': { full: ['thread-leak'], threads: ['thread-leak'], why: 'an executor per request and a Timer every fifth, never shut down' },
  'tomcat-stuck-requests': {
    full: ['hung-threads-reported', 'stuck-threads'],
    threads: ['stuck-threads'],
    why: "Tomcat's valve logs two stuck requests (catalina.out is not a dump-N.txt); their threads stay in the database read",
  },
  'virtual-thread-deadlock': {
    full: ['lock-contention', 'stuck-threads'],
    threads: [],
    why:
      'virtual threads deadlocked on two ReentrantLocks, 200 parked behind them: with the JSON dumps, a pile-up that stays put; ' +
      'Thread.print alone lists none of them (its note says so)',
  },
  'virtual-thread-pinning': {
    full: ['executor-saturated', 'stuck-threads', 'virtual-thread-pinning'],
    threads: ['executor-saturated', 'stuck-threads', 'virtual-thread-pinning'],
    why: "both carriers pinned in class initialisers: the scheduler's pool saturated behind them, the pinned threads in place",
  },
};

const ruleIds = (findings: readonly Finding[]): string[] => [...new Set(findings.filter((f) => f.severity !== 'info').map((f) => f.rule))].sort();

describe('the rules each fixture incident makes', { timeout: 120_000 }, () => {
  test('the table has a row for every incident', () => {
    const dirs = readdirSync(INCIDENTS, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect(Object.keys(TABLE).sort()).toEqual(dirs);
  });

  test('every rule is made by some real-JVM incident (CONTRIBUTING): a list derived from RULES, not kept by hand', () => {
    const made = new Set(Object.values(TABLE).flatMap((r) => [...r.full, ...r.threads]));
    expect(RULES.map((r) => r.meta.id).filter((id) => !made.has(id))).toEqual([]);
  });

  const models: Model[] = [];
  for (const [incident, row] of Object.entries(TABLE)) {
    test(`${incident}: ${row.why}`, async () => {
      const full = await analyseIncident(join(INCIDENTS, incident));
      const threads = await analyseIncident(join(INCIDENTS, incident), { threadsOnly: true });
      expect({ full: ruleIds(full.findings), threads: ruleIds(threads.findings) }).toEqual({ full: row.full, threads: row.threads });
      // Nothing below warning either: a hint no row names would be noise on these incidents.
      expect(full.findings.filter((f) => f.severity === 'info').map((f) => f.id)).toEqual([]);
      // The CPU hot threads are the ones its program burns CPU with, by name.
      const cpuBound = truthOf<{ facts?: { cpuBound?: string } }>(incident).facts?.cpuBound;
      const hot = full.findings.filter((f) => f.rule === 'cpu-hot-threads').map((f) => f.subject);
      if (incident !== 'cpu-runaway') expect(hot).toEqual(cpuBound !== undefined ? [cpuBound] : []);
      if (incident !== 'finalizer-backlog') models.push(full.model);
    });
  }

  test('where a heap was given, its finalizer queue was read, and outside finalizer-backlog it is short', () => {
    const queues = models.flatMap((m) => m.finalizerQueues);
    expect(queues.length).toBeGreaterThan(10);
    for (const q of queues) expect(q.queueLength).toBeLessThan(1000);
  });
});
