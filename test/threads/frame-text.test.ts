import { describe, expect, test } from 'vitest';

import { parseFrameText, parseLockLine, parseLockRef } from '../../src/threads/frame-text.js';

describe('parseFrameText', () => {
  test.each([
    ['java.lang.Thread.sleep(Native Method)', 'java.lang.Thread', 'sleep', 'Native Method'],
    ['java.lang.Thread.run(java.base@17.0.15/Thread.java:833)', 'java.lang.Thread', 'run', 'Thread.java:833'],
    [
      'java.base@17/java.lang.ref.Reference.waitForReferencePendingList(Native Method)',
      'java.lang.ref.Reference',
      'waitForReferencePendingList',
      'Native Method',
    ],
    ['java.base/java.lang.Object.wait0(Native Method)', 'java.lang.Object', 'wait0', 'Native Method'],
    ['app//com.example.Foo.bar(Foo.java:12)', 'com.example.Foo', 'bar', 'Foo.java:12'],
    ['java/lang/Object.wait(J)V(Native Method)', 'java.lang.Object', 'wait', 'Native Method'],
    ['jrockit/vm/Threads.waitForSignal(Native Method)@0x110DC620', 'jrockit.vm.Threads', 'waitForSignal', 'Native Method'],
    ['com.example.Svc$$Lambda$14/0x0000000800c0b440.run(Unknown Source)', 'com.example.Svc$$Lambda$14', 'run', 'Unknown Source'],
  ])('%s', (text, cls, method, loc) => {
    const f = parseFrameText(text);
    expect(f.className).toBe(cls);
    expect(f.method).toBe(method);
    expect(f.location).toBe(loc);
    expect(f.qualified).toBe(`${cls}.${method}`);
  });
});

describe('lock lines', () => {
  test.each([
    ['locked <0x000000076ab62208> (a java.lang.Object)', 'locked', '0x000000076ab62208', 'java.lang.Object'],
    [
      'parking to wait for  <0x00000000ffc08760> (a java.util.concurrent.locks.ReentrantLock$NonfairSync)',
      'parking',
      '0x00000000ffc08760',
      'java.util.concurrent.locks.ReentrantLock$NonfairSync',
    ],
    ['waiting to re-lock in wait() <0x1> (a X)', 'waiting-to-relock', '0x1', 'X'],
    ['waiting on <no object reference available>', 'waiting-on', '', ''],
    ['eliminated <owner is scalar replaced> (a java.lang.Object)', 'eliminated', '', 'java.lang.Object'],
    ['blocked on java.lang.Object@1b6d3586', 'blocked-on', '1b6d3586', 'java.lang.Object'],
    ['Locked <21464a24> (a java.lang.Object)', 'locked', '21464a24', 'java.lang.Object'],
  ])('%s', (text, kind, id, cls) => {
    const l = parseLockLine(text)!;
    expect(l.kind).toBe(kind);
    expect(l.lock?.id ?? '').toBe(id);
    expect(l.lock?.className ?? '').toBe(cls);
  });

  test('VisualVM names the owner', () => {
    const l = parseLockLine('waiting to lock <5b7e9c8d> (a java.lang.Object) owned by "lockingThread" t@17')!;
    expect(l.ownerName).toBe('lockingThread');
    expect(l.lock).toEqual({ id: '5b7e9c8d', className: 'java.lang.Object' });
  });

  test('JRockit lock refs drop the lock kind suffix', () => {
    expect(parseLockRef('java/lang/Object@0x0095C8D0[thin lock]')).toEqual({ id: '0x0095c8d0', className: 'java.lang.Object' });
  });

  test('not a lock line', () => {
    expect(parseLockLine('None')).toBeNull();
  });
});
