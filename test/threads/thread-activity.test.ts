/** Idle or busy (frame markers, and wait sites idle only when the thread waits right there); what counts as outside a dump. */
import { describe, expect, it } from 'vitest';

import { rowsOf } from '../../src/knowledge/index.js';
import type { JavaThreadState, ThreadEntry } from '../../src/model/thread-dump.js';
import { newThreadEntry } from '../../src/threads/dump-builder.js';
import { parseFrameText } from '../../src/threads/frame-text.js';
import { buildLockGraph } from '../../src/threads/lock-graph.js';
import { classifyDump, classifyThread } from '../../src/threads/thread-activity.js';
import { findThreadPools } from '../../src/threads/thread-pools.js';

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
    expect(
      isIdle(
        thread('WAITING', ['jdk.internal.misc.Unsafe.park(Native Method)', 'java.util.concurrent.ThreadPoolExecutor.getTask(ThreadPoolExecutor.java:1062)']),
      ),
    ).toBe(true);
    expect(
      isIdle(
        thread('WAITING', [
          'jdk.internal.misc.Unsafe.park(Native Method)',
          'com.example.Orders.place(Orders.java:10)',
          'java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1136)',
        ]),
      ),
    ).toBe(false);
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
    expect(
      isIdle(thread('WAITING', ['jdk.internal.misc.Unsafe.park(Native Method)', 'com.mysql.cj.NativeSession.connect(NativeSession.java:120)', CREATE_RUN])),
    ).toBe(false);
    expect(
      isIdle(
        thread('WAITING', [
          'jdk.internal.misc.Unsafe.park(Native Method)',
          'java.util.concurrent.locks.LockSupport.park(LockSupport.java:341)',
          'com.mysql.cj.NativeSession.connect(NativeSession.java:120)',
          CREATE_RUN,
          'java.lang.Thread.run(Thread.java:840)',
        ]),
      ),
    ).toBe(false);
  });
});

describe('the time line jstack prints first', () => {
  const dump = [
    '2026-11-30 13:12:26',
    'Full thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode):',
    '',
    '"main" #1 prio=5 os_prio=0 tid=0x1 nid=0x2 runnable',
    '   java.lang.Thread.State: RUNNABLE',
    '\tat A.b(A.java:1)',
    '',
  ];
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

describe('verdicts shared by stack never cross what the wait object says', () => {
  // A hand-written dump (a format edge case: jstack writes no `- waiting on` line when the monitor
  // is not known): one thread of a stack with no wait object, then four with a shared, unowned one.
  const worker = (n: number, waitLine: boolean) => [
    `"worker-${n}" #${10 + n} prio=5 os_prio=0 cpu=1.00ms elapsed=10.00s tid=0x00007f000000${n}000 nid=0x${(100 + n).toString(16)} in Object.wait()  ` +
      `[0x00007f0000001000]`,
    '   java.lang.Thread.State: WAITING (on object monitor)',
    '\tat java.lang.Object.wait(java.base@17.0.15/Native Method)',
    ...(waitLine ? ['\t- waiting on <0x00000000f0001000> (a com.acme.JobQueue)'] : []),
    '\tat java.lang.Object.wait(java.base@17.0.15/Object.java:338)',
    '\tat com.acme.JobQueue.next(JobQueue.java:40)',
    // Application frames down to its own run method: no known loop, no task boundary the stack shows.
    ...['Orders.load', 'Orders.sync', 'Sync.batch', 'Sync.step', 'Sync.tick', 'Sync.loop'].map(
      (m, k) => `\tat com.acme.${m}(${m.split('.')[0]}.java:${k + 1})`,
    ),
    '\tat com.acme.Sync.run(Sync.java:9)',
    '\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:833)',
    '',
  ];
  const dumpOf = (lines: string[]) => {
    const p = new TextDumpParser('t.txt');
    p.pushText(['2026-11-30 13:12:26', 'Full thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode, sharing):', '', ...lines].join('\n') + '\n');
    return p.finish().dumps[0]!;
  };
  const verdictsOf = (dump: ReturnType<typeof dumpOf>) => classifyDump(dump, buildLockGraph(dump)).map((v) => `${v.activity}/${v.basis}`);

  it('four workers on one unowned queue are judged by it, whether or not a thread without the line came first', () => {
    const alone = verdictsOf(dumpOf([1, 2, 3, 4].flatMap((n) => worker(n, true))));
    expect(alone).toEqual(Array(4).fill('idle/wait-object'));
    const after = verdictsOf(dumpOf([...worker(0, false), ...[1, 2, 3, 4].flatMap((n) => worker(n, true))]));
    expect(after.slice(1)).toEqual(alone);
  });
});

describe('look-alike threads whose names carry two numbers', () => {
  // Hand-written (a naming edge case): `app-w09 [container1-223]`, the worker number and a container
  // counter, so no two names share the pattern that replaces the last number only.
  const worker = (n: number) => [
    `"app-w${n} [container1-${200 + n}]" #${10 + n} prio=5 os_prio=0 tid=0x00007f000000${n}000 nid=0x${(100 + n).toString(16)} waiting on condition  ` +
      `[0x00007f0000001000]`,
    '   java.lang.Thread.State: WAITING (parking)',
    '\tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)',
    '\t- parking to wait for  <0x00000000f0002000> (a java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject)',
    '\tat java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:341)',
    '\tat java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await(java.base@17.0.15/AbstractQueuedSynchronizer.java:1623)',
    '\tat java.util.concurrent.LinkedBlockingQueue.take(java.base@17.0.15/LinkedBlockingQueue.java:435)',
    '\tat com.acme.Dispatcher.loop(Dispatcher.java:30)',
    '\tat com.acme.Dispatcher.run(Dispatcher.java:12)',
    '\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:833)',
    '',
  ];
  it('are one pool, named by what the names share', () => {
    const p = new TextDumpParser('t.txt');
    p.pushText(['Full thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode, sharing):', '', ...[1, 2, 3].flatMap(worker)].join('\n') + '\n');
    const dump = p.finish().dumps[0]!;
    const pools = findThreadPools(dump, classifyDump(dump, buildLockGraph(dump)));
    expect(pools.map((x) => [x.name, x.threads.length, x.real])).toEqual([['app', 3, true]]);
  });
});

describe('names that say what a thread is', () => {
  const named = (name: string, state: JavaThreadState = 'RUNNABLE') => {
    const th = newThreadEntry(name, 1);
    th.state = state;
    return classifyThread(th);
  };

  it('reads every row of the housekeeping table, through the one combined test', () => {
    // The table's patterns are joined into one regex, anchored once: it would drop any flag a row
    // had, and anchor a row that was not.
    for (const h of [...rowsOf('jvm-thread-name'), ...rowsOf('gc-thread-name')]) expect(h.match.startsWith('^'), h.match).toBe(true);
    for (const name of ['Signal Dispatcher', 'C2 CompilerThread0', 'G1 Conc#0', 'Monitor Ctrl-Break', '[JRockit] GC Main', 'process reaper (pid 12)']) {
      expect(named(name).activity, name).toBe('housekeeping');
    }
    // Near misses stay what their stack says (no frames, not virtual: the JVM's own by default, but not by name).
    expect(named('Signal Dispatcher 2').basis).not.toBe('thread-name');
    expect(named('xmain').basis).not.toBe('thread-name');
  });

  it('knows a main thread by its exact name only', () => {
    const main = (name: string) => {
      const th = newThreadEntry(name, 1);
      th.state = 'WAITING';
      th.frames.push(
        parseFrameText('java.lang.Object.wait(Native Method)'),
        parseFrameText('java.lang.Thread.join(Thread.java:1300)'),
        parseFrameText('App.main(App.java:10)'),
      );
      return classifyThread(th);
    };
    for (const name of ['main', 'Main Thread', 'DestroyJavaVM']) expect(main(name).basis, name).toBe('shutdown-wait');
    for (const name of ['mainx', 'Main', 'Main Threads', 'DestroyJavaVM ']) expect(main(name).basis, name).not.toBe('shutdown-wait');
  });
});

describe('waiting for input is idle, wherever it waits', () => {
  const verdict = (state: JavaThreadState, frames: string[]) => classifyThread(thread(state, frames));

  it('a thread of its own reading standard input deep in its own code (a shell) is idle', () => {
    const v = verdict('RUNNABLE', [
      'java.io.FileInputStream.read0(Native Method)',
      'java.io.FileInputStream.read(FileInputStream.java:207)',
      'jline.internal.NonBlockingInputStream.read(NonBlockingInputStream.java:248)',
      'jline.console.ConsoleReader.readCharacter(ConsoleReader.java:2038)',
      'jline.console.ConsoleReader.readLine(ConsoleReader.java:2242)',
      'sbt.JLine.readLine(LineReader.scala:17)',
      'sbt.BasicCommands$$anonfun$shell$1.apply(BasicCommands.scala:167)',
      'sbt.Command$.process(Command.scala:93)',
      'sbt.MainLoop$.next(MainLoop.scala:100)',
      'sbt.MainLoop$.run(MainLoop.scala:93)',
      'xsbt.boot.Boot$.main(Boot.scala:17)',
      'xsbt.boot.Boot.main(Boot.scala)',
    ]);
    expect(v.activity).toBe('idle');
    expect(v.reason).toMatch(/waiting for input/);
  });

  it('the same read under a client library is a call to a remote service: work', () => {
    const v = verdict('RUNNABLE', [
      'java.net.SocketInputStream.socketRead0(Native Method)',
      'java.net.SocketInputStream.read(SocketInputStream.java:171)',
      'com.mysql.jdbc.util.ReadAheadInputStream.fill(ReadAheadInputStream.java:101)',
      'com.mysql.jdbc.MysqlIO.readFully(MysqlIO.java:3008)',
      'com.mysql.jdbc.ConnectionImpl.execSQL(ConnectionImpl.java:2484)',
      'com.acme.Nightly.run(Nightly.java:40)',
      'java.lang.Thread.run(Thread.java:748)',
    ]);
    expect(v.activity).toBe('working');
    expect(v.reason).toMatch(/a MySQL JDBC call/);
  });

  it("a pool task reading the next request with its own server's code is idle; its task reading a reply is work", () => {
    const server = verdict('RUNNABLE', [
      'java.net.SocketInputStream.socketRead0(Native Method)',
      'java.net.SocketInputStream.read(SocketInputStream.java:171)',
      'org.acme.rpc.FrameDecoder.fill(FrameDecoder.java:88)',
      'org.acme.rpc.FrameDecoder.readFrame(FrameDecoder.java:60)',
      'org.acme.rpc.Connection.serve(Connection.java:31)',
      'org.acme.rpc.Connection.run(Connection.java:20)',
      'java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1149)',
      'java.util.concurrent.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:624)',
      'java.lang.Thread.run(Thread.java:748)',
    ]);
    expect(server.activity).toBe('idle');
    expect(server.reason).toMatch(/readFrame, its own code reading the next request/);
    const caller = verdict('RUNNABLE', [
      'java.net.SocketInputStream.socketRead0(Native Method)',
      'java.net.SocketInputStream.read(SocketInputStream.java:171)',
      'com.vendor.client.Reply.readFrame(Reply.java:60)',
      'com.acme.Export.run(Export.java:20)',
      'java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1149)',
      'java.util.concurrent.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:624)',
      'java.lang.Thread.run(Thread.java:748)',
    ]);
    expect(caller.activity).toBe('working');
  });

  it("an unknown library's native wait for input on its own thread is idle; in a pool task it is work", () => {
    const own = verdict('RUNNABLE', ['org.zeromq.ZMQ$Socket.recv(Native Method)', 'com.acme.Feed.loop(Feed.java:30)', 'java.lang.Thread.run(Thread.java:748)']);
    expect(own.activity).toBe('idle');
    const ui = verdict('RUNNABLE', [
      'org.eclipse.swt.internal.win32.OS.WaitMessage(Native Method)',
      'org.eclipse.swt.widgets.Display.sleep(Display.java:4751)',
      'org.acme.App.main(App.java:9)',
    ]);
    expect(ui.activity).toBe('idle');
    const task = verdict('RUNNABLE', [
      'org.zeromq.ZMQ$Socket.recv(Native Method)',
      'com.acme.Quote.fetch(Quote.java:12)',
      'java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1149)',
      'java.util.concurrent.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:624)',
      'java.lang.Thread.run(Thread.java:748)',
    ]);
    expect(task.activity).toBe('working');
    // A native method of the JDK that no row knows is not a wait for a peer (a file read).
    expect(
      verdict('RUNNABLE', ['java.io.RandomAccessFile.readBytes(Native Method)', 'com.acme.Index.load(Index.java:3)', 'java.lang.Thread.run(Thread.java:748)'])
        .activity,
    ).toBe('working');
  });
});

describe('a nap inside a task', () => {
  const frames = [
    'java.lang.Thread.sleep(Thread.java:540)',
    'com.acme.Poller.pollOnce(Poller.java:40)',
    'java.util.concurrent.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:635)',
    'java.lang.Thread.run(Thread.java:1583)',
  ];
  it('a platform worker holds its worker while it sleeps', () => {
    expect(classifyThread(thread('TIMED_WAITING', frames)).reason).toMatch(/the task holds its worker while it waits/);
  });
  it('a virtual thread unmounts: its carrier is free, and it is not said to hold one', () => {
    const th = thread('TIMED_WAITING', frames);
    th.virtual = true;
    const reason = classifyThread(th).reason;
    expect(reason).toMatch(/the virtual thread waits, unmounted: its carrier is free meanwhile/);
    expect(reason).not.toMatch(/holds its worker/);
  });
});

describe('waits judged by the JDK API called and by what shows work (issue 47), on hand-made stacks of real frame names', () => {
  const verdict = (state: JavaThreadState, frames: string[]) => classifyThread(thread(state, frames));

  it("Windows' I/O completion port handler threads wait for completions: idle", () => {
    const v = verdict('RUNNABLE', [
      'sun.nio.ch.Iocp.getQueuedCompletionStatus(Native Method)',
      'sun.nio.ch.Iocp$EventHandlerTask.run(Iocp.java:323)',
      'java.lang.Thread.run(Thread.java:750)',
    ]);
    expect([v.activity, v.reason]).toEqual(['idle', expect.stringMatching(/I\/O completions/)]);
  });

  it("the IBM runtime's signal dispatcher and the thread writing a javacore are housekeeping", () => {
    expect(
      verdict('RUNNABLE', ['com.ibm.misc.SignalDispatcher.waitForSignal(Native Method)', 'com.ibm.misc.SignalDispatcher.run(SignalDispatcher.java:66)'])
        .activity,
    ).toBe('housekeeping');
    const writer = verdict('RUNNABLE', [
      'com.ibm.jvm.Dump.JavaDumpImpl(Native Method)',
      'com.ibm.jvm.Dump.JavaDump(Dump.java:81)',
      'com.acme.Diagnostics.snapshot(Diagnostics.java:40)',
      'java.lang.Thread.run(Thread.java:825)',
    ]);
    expect([writer.activity, writer.reason]).toEqual(['housekeeping', expect.stringMatching(/writing a dump/)]);
  });

  it('a vendor native read under a camel-case prefix is a read; a vendor native of another name, in its own thread, is unknown (native)', () => {
    const read = verdict('RUNNABLE', [
      'com.acme.net.Sock.nativeRead(Native Method)',
      'com.acme.net.Link.pump(Link.java:12)',
      'java.lang.Thread.run(Thread.java:833)',
    ]);
    expect([read.activity, read.basis]).toEqual(['idle', 'listener']);
    const other = verdict('RUNNABLE', [
      'com.acme.net.Sock.ACCPTP(Native Method)',
      'com.acme.net.Link.serve(Link.java:12)',
      'java.lang.Thread.run(Thread.java:833)',
    ]);
    expect([other.activity, other.basis]).toEqual(['working', 'native']);
    expect(other.reason).toMatch(/which one dump cannot tell/);
    // Control: the letters "Read" inside another word ("Ready") are no read: unknown, so `native`.
    const ready = verdict('RUNNABLE', [
      'com.acme.gpu.Dev.computeReady(Native Method)',
      'com.acme.gpu.Dev.x(Dev.java:1)',
      'java.lang.Thread.run(Thread.java:833)',
    ]);
    expect(ready.basis).toBe('native');
  });

  it('a deep wait in a thread of its own is silent (nothing shows work); control: the same wait deep in a pool task is work, a sleep there paces work', () => {
    const own = [
      'java.lang.Object.wait(Native Method)',
      'com.acme.sync.Gate.pass(Gate.java:10)',
      'com.acme.sync.Gate.through(Gate.java:20)',
      'com.acme.flow.Stage.step(Stage.java:30)',
      'com.acme.flow.Stage.advance(Stage.java:40)',
      'com.acme.flow.Pipeline.drive(Pipeline.java:50)',
      'com.acme.flow.Pipeline.cycle(Pipeline.java:60)',
      'com.acme.flow.Pipeline.run(Pipeline.java:70)',
    ];
    const v = verdict('WAITING', [...own, 'java.lang.Thread.run(Thread.java:833)']);
    expect([v.activity, v.basis]).toEqual(['idle', 'no-work-shown']);
    expect(v.reason).toMatch(/nothing shows it is inside a piece of work/);
    expect(verdict('WAITING', [...own, 'java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1136)']).activity).toBe('working');
    const sleeping = verdict('TIMED_WAITING', ['java.lang.Thread.sleep(Native Method)', ...own.slice(1), 'java.lang.Thread.run(Thread.java:833)']);
    expect(sleeping.activity).toBe('working');
  });

  it("a pool worker in getTask is idle whatever queue waits above it (a vendor's SynchronousQueue); control: a task above runWorker is work", () => {
    const v = verdict('TIMED_WAITING', [
      'sun.misc.Unsafe.park(Native Method)',
      'java.util.concurrent.locks.LockSupport.parkNanos(LockSupport.java:338)',
      'com.gemstone.java.util.concurrent.SynchronousQueueNoSpin$TransferStack.awaitFulfill(SynchronousQueueNoSpin.java:451)',
      'com.gemstone.java.util.concurrent.SynchronousQueueNoSpin$TransferStack.transfer(SynchronousQueueNoSpin.java:350)',
      'com.gemstone.java.util.concurrent.SynchronousQueueNoSpin.poll(SynchronousQueueNoSpin.java:901)',
      'java.util.concurrent.ThreadPoolExecutor.getTask(ThreadPoolExecutor.java:1066)',
      'java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1127)',
      'java.util.concurrent.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:617)',
      'java.lang.Thread.run(Thread.java:745)',
    ]);
    expect([v.activity, v.reason]).toEqual(['idle', expect.stringMatching(/getTask/)]);
    const task = verdict('TIMED_WAITING', [
      'sun.misc.Unsafe.park(Native Method)',
      'java.util.concurrent.locks.LockSupport.parkNanos(LockSupport.java:338)',
      'com.acme.Orders.awaitStock(Orders.java:40)',
      'com.acme.Orders.place(Orders.java:20)',
      'java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1127)',
      'java.util.concurrent.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:617)',
    ]);
    expect(task.activity).toBe('working');
  });

  it('a client call opened through java.sql.DriverManager is work even in a thread of its own', () => {
    const v = verdict('RUNNABLE', [
      'sun.nio.ch.SocketDispatcher.read0(Native Method)',
      'sun.nio.ch.NioSocketImpl.read(NioSocketImpl.java:276)',
      'com.acme.db.Wire.fill(Wire.java:22)',
      'com.acme.db.Wire.handshake(Wire.java:40)',
      'java.sql.DriverManager.getConnection(DriverManager.java:681)',
      'com.acme.tool.Main.connect(Main.java:9)',
      'java.lang.Thread.run(Thread.java:833)',
    ]);
    expect([v.activity, v.basis]).toEqual(['working', 'in-task']);
  });
});
