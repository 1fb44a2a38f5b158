/**
 * Answers about a stack computed once per stack array. Threads whose bodies were identical share one
 * frames array (see ThreadBodies), so in a big pool most threads ask about the same array, and a
 * question that walks the top frames is answered by one lookup. Stacks are complete once parsed and
 * nothing changes them afterwards, which is what makes the array a key.
 *
 * Only arrays marked shared are cached: remembering every thread's own array (a dump where each
 * thread holds its own locks has no shared bodies) cost more in WeakMap entries than it saved.
 */
import type { StackFrame } from '../model/thread-dump.js';

const sharedStacks = new WeakSet<readonly StackFrame[]>();

/** Marks a frames array that several threads hold, so answers about it are kept. */
export function markSharedStack(frames: readonly StackFrame[]): void {
  sharedStacks.add(frames);
}

/** Whether several threads hold this frames array (answers about it are worth keeping). */
export function isSharedStack(frames: readonly StackFrame[]): boolean {
  return sharedStacks.has(frames);
}

export function perStack<T>(compute: (frames: readonly StackFrame[]) => T): (frames: readonly StackFrame[]) => T {
  // Weak, so the stacks of a finished analysis are not kept by the cache.
  const answers = new WeakMap<readonly StackFrame[], { readonly value: T }>();
  return (frames) => {
    if (!sharedStacks.has(frames)) return compute(frames);
    let answer = answers.get(frames);
    if (answer === undefined) {
      answer = { value: compute(frames) };
      answers.set(frames, answer);
    }
    return answer.value;
  };
}
