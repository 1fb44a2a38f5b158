/**
 * The frames of threads' stacks that hold an object, in the `dumpsleuth.memory/1` JSON (and the
 * analysis report's `model.memory`, which repeats it): additive fields of an object and of a suspect.
 */
import type { LeakSuspect, RetainedObject, StackFrameHold } from '../model/memory.js';

const frameJson = (h: StackFrameHold) => ({
  ...(h.threadName !== undefined ? { thread: h.threadName } : {}),
  ...(h.threadId !== undefined ? { threadId: h.threadId } : {}),
  depth: h.depth,
  ...(h.frame !== undefined ? { frame: h.frame } : {}),
});

/** An object's `stackFrames` (and `moreStackFrames`), when threads' stacks hold it. */
export function stackFramesJson(o: RetainedObject) {
  return o.stackFrames === undefined
    ? {}
    : { stackFrames: o.stackFrames.map(frameJson), ...(o.moreStackFrames !== undefined ? { moreStackFrames: o.moreStackFrames } : {}) };
}

/** A suspect's `stackHolder`: the object a frame's local keeps, as `object` draws any object. */
export function stackHolderJson<T>(x: LeakSuspect, object: (o: RetainedObject) => T) {
  return x.stackHolder === undefined ? {} : { stackHolder: object(x.stackHolder) };
}
