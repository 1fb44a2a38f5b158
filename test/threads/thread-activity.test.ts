/** Idle or busy (frame markers, and wait sites idle only when the thread waits right there); what counts as outside a dump. */
import { describe, expect, it } from 'vitest';
import type { JavaThreadState, ThreadEntry } from '../../src/model/thread-dump.js';
import { newThreadEntry } from '../../src/threads/dump-builder.js';
import { parseFrameText } from '../../src/threads/frame-text.js';
import { classifyThread } from '../../src/threads/thread-activity.js';

const isIdle = (th: ThreadEntry): boolean => classifyThread(th).activity === 'idle';
import { TextDumpParser } from '../../src/threads/text-parser.js';

function thread(state: JavaThreadState, frames: string[]): ThreadEntry {
  const th = newThreadEntry('t', 1);
  th.state = state;
  th.frames.push(...frames.map((f) => parseFrameText(f)));
  return th;
}

const CREATE_RUN = 'com.alibaba.druid.pool.DruidDataSource$CreateConnectionThread.run(DruidDataSource.java:2815)';

describe('idle or not, on hand-made stacks of real frames', () => {
  it('a pool worker waiting in getTask is idle; one in application code is not', () => {
    expect(isIdle(thread('WAITING', ['jdk.internal.misc.Unsafe.park(Native Method)', 'java.util.concurrent.ThreadPoolExecutor.getTask(ThreadPoolExecutor.java:1062)']))).toBe(true);
    expect(isIdle(thread('WAITING', ['jdk.internal.misc.Unsafe.park(Native Method)', 'com.example.Orders.place(Orders.java:10)', 'java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1136)']))).toBe(false);
  });

  it("Druid's create thread waiting on `empty` is idle", () => {
    const waiting = thread('WAITING', [
      'jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)',
      'java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:341)',
      'java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await(java.base@17.0.15/AbstractQueuedSynchronizer.java:1623)',
      CREATE_RUN,
    ]);
    expect(isIdle(waiting)).toBe(true);
  });

  it('the same thread connecting to the database is busy (negative control)', () => {
    const connecting = thread('RUNNABLE', [
      'sun.nio.ch.Net.connect0(java.base@17.0.15/Native Method)',
      'com.mysql.cj.protocol.StandardSocketFactory.connect(StandardSocketFactory.java:153)',
      'com.alibaba.druid.pool.DruidAbstractDataSource.createPhysicalConnection(DruidAbstractDataSource.java:1646)',
      CREATE_RUN,
    ]);
    expect(isIdle(connecting)).toBe(false);
    // Waiting, but for a lock inside the driver: still busy.
    expect(isIdle(thread('WAITING', ['jdk.internal.misc.Unsafe.park(Native Method)', 'com.mysql.cj.NativeSession.connect(NativeSession.java:120)', CREATE_RUN]))).toBe(false);
    expect(isIdle(thread('WAITING', ['jdk.internal.misc.Unsafe.park(Native Method)', 'java.util.concurrent.locks.LockSupport.park(LockSupport.java:341)', 'com.mysql.cj.NativeSession.connect(NativeSession.java:120)', CREATE_RUN, 'java.lang.Thread.run(Thread.java:840)']))).toBe(false);
  });
});

describe('the time line jstack prints first', () => {
  const dump = ['2026-11-30 13:12:26', 'Full thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode):', '', '"main" #1 prio=5 os_prio=0 tid=0x1 nid=0x2 runnable', '   java.lang.Thread.State: RUNNABLE', '\tat A.b(A.java:1)', ''];
  const parse = (lines: string[]) => {
    const p = new TextDumpParser('t.txt');
    p.pushText(lines.join('\n') + '\n');
    return p.finish();
  };

  it('dates the dump and is not counted as a line outside dumps', () => {
    const file = parse(dump);
    expect(file.dumps[0]!.timestamp).toBe('2026-11-30 13:12:26');
    expect(file.outsideLines).toBe(0);
  });

  it('a log line before it still is (negative control)', () => {
    const file = parse(['12:00:00.001 INFO starting', ...dump]);
    expect(file.dumps[0]!.timestamp).toBe('2026-11-30 13:12:26');
    expect(file.outsideLines).toBe(1);
  });
});
