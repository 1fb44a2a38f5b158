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

/**
 * The answers kept for each shared frames array, one slot per question (perStack call): one lookup
 * tells whether the array is shared and finds its answers (a WeakSet beside a WeakMap per question
 * cost two lookups per question per thread).
 */
const answersByStack = new WeakMap<readonly StackFrame[], unknown[]>();
/** Slots not answered yet (an answer may itself be undefined). */
const NOT_ASKED: unique symbol = Symbol('not asked');
/** Questions made so far: each perStack call takes the next slot. */
let questions = 0;

/** Marks a frames array that several threads hold, so answers about it are kept. */
export function markSharedStack(frames: readonly StackFrame[]): void {
  if (!answersByStack.has(frames)) answersByStack.set(frames, []);
}

/** Whether several threads hold this frames array (answers about it are worth keeping). */
export function isSharedStack(frames: readonly StackFrame[]): boolean {
  return answersByStack.has(frames);
}

export function perStack<T>(compute: (frames: readonly StackFrame[]) => T): (frames: readonly StackFrame[]) => T {
  const slot = questions++;
  return (frames) => {
    // Weak, so the stacks of a finished analysis are not kept by the cache.
    const answers = answersByStack.get(frames);
    if (answers === undefined) return compute(frames);
    if (slot < answers.length && answers[slot] !== NOT_ASKED) return answers[slot] as T;
    const value = compute(frames);
    while (answers.length < slot) answers.push(NOT_ASKED);
    answers[slot] = value;
    return value;
  };
}
