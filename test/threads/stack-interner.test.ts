/** StackInterner hands threads with the same frames one array, whatever else their bodies hold. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import type { StackFrame, ThreadEntry } from '../../src/model/thread-dump.js';
import { parseFrameText } from '../../src/threads/frame-text.js';
import { StackInterner } from '../../src/threads/stack-interner.js';
import { TextDumpParser } from '../../src/threads/text-parser.js';
import { FIXTURES, parseLineByLine } from '../helpers.js';

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

  it('in the text parser: threads that differ only in the locks they hold share their frames array, not their locks', () => {
    // A real JVM's pool (fixtures/threads/pool): workers 1 to 3 sleep in the same frames, each holding its own Worker lock.
    const text = readFileSync(join(FIXTURES, 'pool', 'dump-1.txt'), 'latin1');
    const p = new TextDumpParser('t');
    p.pushText(text);
    const workers = (threads: ThreadEntry[]) => [1, 2, 3].map((n) => threads.find((t) => t.name === `DubboServerHandler-127.0.0.1:20880-thread-${n}`)!);
    // Line by line, no body is remembered: the stacks are shared when each thread ends.
    const [x, y] = workers(parseLineByLine(text).dumps[0]!.threads);
    expect(y!.frames).toBe(x!.frames);
    const [a, b, c] = workers(p.finish().dumps[0]!.threads);
    expect(b!.frames).toBe(a!.frames);
    expect(c!.frames).toBe(a!.frames);
    expect(a!.frames[0]!.qualified).toMatch(/^java\.lang\.Thread\.sleep/);
    const held = [a, b, c].map((t) => t!.ownableSynchronizers.map((l) => l.id).join());
    expect(new Set(held).size).toBe(3);
    expect(b!.ownableSynchronizers).not.toBe(a!.ownableSynchronizers);
  });
});
