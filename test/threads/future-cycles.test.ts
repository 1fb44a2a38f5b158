/**
 * Deadlocks through a future (a thread holds a lock and waits for a task that needs it): a real JVM
 * (fixtures/programs/future-deadlock, truth.json written by the program) with its control, a thread
 * held up behind a future wait that is no cycle; and IntelliJ's debugger export, whose lock waits are
 * written as notes (`waiting for main@1 to release lock on <0x2705> ...`).
 */
import { readFileSync } from 'node:fs';

import { describe, expect, test } from 'vitest';

import { analyse, FIXTURES, parseLineByLine } from '../helpers.js';

describe('future-deadlock fixture (a real JVM, one jstack -l dump)', async () => {
  const t = JSON.parse(readFileSync(`${FIXTURES}/future-deadlock/truth.json`, 'utf8')) as { deadlocked: string[]; heldUpNotDeadlocked: string[] };
  const { findings } = await analyse([`${FIXTURES}/future-deadlock/dump.txt`]);
  const deadlocks = findings.filter((f) => f.rule === 'deadlock');

  test('the waiter and the task it waits for are one probable deadlock, said to go through a future, with the class that links them', () => {
    expect(deadlocks.map((f) => [...(f.facts['threads'] as string[])].sort())).toEqual([[...t.deadlocked].sort()]);
    expect(deadlocks[0]!.severity).toBe('error');
    expect(deadlocks[0]!.title).toBe('Possible deadlock (through a future)');
    expect(deadlocks[0]!.message).toMatch(/probably deadlocked: "main" holds FutureDeadlock\$Registry <0x[0-9a-f]+> and waits for a task's result/);
    expect(deadlocks[0]!.message).toMatch(/the link is FutureDeadlock\$Registry, in both stacks/);
    // No lock order helps here: the remedy says not to wait for the task under the lock.
    expect(deadlocks[0]!.remedy).toMatch(/^Do not wait for a task while holding a lock the task needs/);
  });

  test('control: a thread blocked behind one that waits for a task of another class is no cycle', () => {
    for (const name of t.heldUpNotDeadlocked) expect(deadlocks.flatMap((f) => f.facts['threads'] as string[])).not.toContain(name);
  });
});

describe("IntelliJ's debugger export: lock waits written as notes (a format edge case, hand-written in its shape)", () => {
  const text = [
    '"main@1" prio=5 tid=0x1 nid=NA waiting',
    '  java.lang.Thread.State: WAITING',
    '\t blocks pool-1-thread-1@9887',
    '\t  at jdk.internal.misc.Unsafe.park(Unsafe.java:-1)',
    '\t  at java.util.concurrent.FutureTask.get(FutureTask.java:203)',
    '\t  at com.acme.Boot.start(Boot.java:20)',
    '\t  - locked <0x2705> (a java.util.concurrent.ConcurrentHashMap)',
    '',
    '"pool-1-thread-1@9887" prio=5 tid=0x20 nid=NA waiting for monitor entry',
    '  java.lang.Thread.State: BLOCKED',
    '\t waiting for main@1 to release lock on <0x2705> (a java.util.concurrent.ConcurrentHashMap)',
    '\t  at com.acme.Registry.get(Registry.java:9)',
    '',
  ].join('\n');

  test('the waiter gets the lock it waits to enter and its owner; no line is left unparsed', () => {
    const dump = parseLineByLine(text).dumps[0]!;
    const waiter = dump.threads.find((th) => th.name === 'pool-1-thread-1@9887')!;
    expect(waiter.locks).toEqual([{ frameIndex: 0, kind: 'waiting-to-lock', lock: { id: '0x2705', className: 'java.util.concurrent.ConcurrentHashMap' } }]);
    expect(waiter.lockOwnerName).toBe('main@1');
    expect(dump.unparsedCount).toBe(0);
  });
});
