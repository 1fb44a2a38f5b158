/** StackInterner hands threads with the same frames one array, whatever else their bodies hold. */
import { describe, expect, it } from 'vitest';
import { StackInterner } from '../../src/threads/stack-interner.js';
import { TextDumpParser } from '../../src/threads/text-parser.js';
import { parseFrameText } from '../../src/threads/frame-text.js';
import type { StackFrame } from '../../src/model/thread-dump.js';

const [park, getTask, run, work] = [
  'jdk.internal.misc.Unsafe.park(java.base@17/Native Method)',
  'java.util.concurrent.ThreadPoolExecutor.getTask(java.base@17/ThreadPoolExecutor.java:1062)',
  'java.lang.Thread.run(java.base@17/Thread.java:840)',
  'com.example.Work.run(Work.java:7)',
].map(parseFrameText) as [StackFrame, StackFrame, StackFrame, StackFrame];

describe('StackInterner', () => {
  it('returns the first array for equal frames, and keeps different stacks apart', () => {
    const stacks = new StackInterner();
    const first = [park, getTask, run];
    expect(stacks.intern(first)).toBe(first);
    expect(stacks.intern([park, getTask, run])).toBe(first);
    const shorter = [getTask, run];
    expect(stacks.intern(shorter)).toBe(shorter);
    const other = [work, getTask, run];
    expect(stacks.intern(other)).toBe(other);
    expect(stacks.intern([park, getTask, run])).toBe(first);
    expect(stacks.intern([work, getTask, run])).toBe(other);
  });

  it('past its node limit leaves new stacks as they are and still answers for the known ones', () => {
    const stacks = new StackInterner(3);
    const known = [park, getTask, run];
    stacks.intern(known);
    const beyond = [work, getTask, run];
    expect(stacks.intern(beyond)).toBe(beyond);
    expect(stacks.intern([work, getTask, run])).not.toBe(beyond);
    expect(stacks.intern([park, getTask, run])).toBe(known);
  });

  it('in the text parser: threads that differ only in lock addresses share their frames array, not their locks', () => {
    // Hand-written from jstack's layout: the same stack holding a different monitor in each thread.
    const thread = (i: number) => [
      `"worker-${i}" #${20 + i} prio=5 os_prio=0 tid=0x00007f000000${i}000 nid=0x${100 + i} waiting for monitor entry  [0x00007f0000001000]`,
      '   java.lang.Thread.State: BLOCKED (on object monitor)',
      '\tat com.example.Cache.get(Cache.java:42)',
      `\t- waiting to lock <0x00000000c0000${i}00> (a com.example.Cache)`,
      '\tat com.example.Work.run(Work.java:7)',
      '\tat java.lang.Thread.run(java.base@17/Thread.java:840)',
      '',
    ];
    const p = new TextDumpParser('t');
    p.pushText(['Full thread dump OpenJDK 64-Bit Server VM (17 mixed mode):', '', ...thread(1), ...thread(2), ...thread(3)].join('\n') + '\n');
    const [a, b, c] = p.finish().dumps[0]!.threads;
    expect(b!.frames).toBe(a!.frames);
    expect(c!.frames).toBe(a!.frames);
    expect(a!.frames.map((f) => f.qualified)).toEqual(['com.example.Cache.get', 'com.example.Work.run', 'java.lang.Thread.run']);
    expect([a, b, c].map((t) => t!.locks[0]!.lock!.id)).toEqual(['0x00000000c0000100', '0x00000000c0000200', '0x00000000c0000300']);
  });
});
