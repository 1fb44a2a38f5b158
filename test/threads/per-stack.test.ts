/**
 * Answers cached per frames array (perStack) and groups found by the array (groupIdenticalStacks)
 * must not depend on whether threads share their array or hold equal copies.
 */
import { describe, expect, it } from 'vitest';

import type { JavaThreadState, StackFrame } from '../../src/model/thread-dump.js';
import { newThreadDump, newThreadEntry } from '../../src/threads/dump-builder.js';
import { parseFrameText } from '../../src/threads/frame-text.js';
import { markSharedStack, perStack } from '../../src/threads/per-stack.js';
import { groupIdenticalStacks } from '../../src/threads/stack-groups.js';

const park = parseFrameText('jdk.internal.misc.Unsafe.park(java.base@17/Native Method)');
const getTask = parseFrameText('java.util.concurrent.ThreadPoolExecutor.getTask(java.base@17/ThreadPoolExecutor.java:1062)');
const work = parseFrameText('com.example.Work.run(Work.java:7)');

describe('perStack', () => {
  it('computes once per shared array, every time for an array held by one thread, and again for an equal copy', () => {
    let calls = 0;
    const depth = perStack((frames) => (calls++, frames.length));
    const shared: StackFrame[] = [park, getTask];
    markSharedStack(shared);
    const own: StackFrame[] = [work];
    expect([depth(shared), depth(shared), depth([park, getTask]), depth(own), depth(own)]).toEqual([2, 2, 2, 1, 1]);
    expect(calls).toBe(4);
  });

  it('keeps the answers of several questions about one array apart, whichever is asked first', () => {
    const first = perStack((frames) => `first of ${frames.length}`);
    const second = perStack((frames) => frames.length * 10);
    const third = perStack((frames) => frames[0]!.method);
    const frames: StackFrame[] = [park, getTask, work];
    markSharedStack(frames);
    expect(third(frames)).toBe('park');
    expect(first(frames)).toBe('first of 3');
    expect(second(frames)).toBe(30);
    expect([first(frames), second(frames), third(frames)]).toEqual(['first of 3', 30, 'park']);
  });

  it('keeps undefined answers too', () => {
    let calls = 0;
    const none = perStack(() => (calls++, undefined));
    const frames: StackFrame[] = [work];
    markSharedStack(frames);
    none(frames);
    none(frames);
    expect(calls).toBe(1);
  });
});

describe('groupIdenticalStacks', () => {
  it('puts threads with a shared array and threads with equal copies in one group, per state', () => {
    const dump = newThreadDump('t', 0, 'hotspot', 1);
    const shared: StackFrame[] = [park, getTask];
    const add = (frames: StackFrame[], state: JavaThreadState) => {
      const th = newThreadEntry(`w-${dump.threads.length}`, dump.threads.length + 1);
      th.frames = frames;
      th.state = state;
      dump.threads.push(th);
    };
    add(shared, 'WAITING');
    add([park, getTask], 'WAITING');
    add(shared, 'WAITING');
    add(shared, 'TIMED_WAITING');
    add([work], 'RUNNABLE');
    const groups = groupIdenticalStacks(dump);
    expect(groups.map((g) => [g.state, g.threads])).toEqual([
      ['WAITING', [0, 1, 2]],
      ['TIMED_WAITING', [3]],
      ['RUNNABLE', [4]],
    ]);
  });
});
