/**
 * Which frames of the threads' stacks hold an object, from what the graph's format recorded of them
 * (ObjectGraph.stackLocals: an HPROF's Java-frame roots, which name their thread and frame).
 */
import type { StackFrameHold } from '../../model/memory.js';
import { idOf, idText, type ObjectGraph, type StackLocals } from './object-graph.js';

/** Frames listed for one object; an object many threads hold (a shared lock) says how many more. */
const FRAMES_LISTED = 4;

/**
 * The frames whose local variables hold `v`, when no GC root holds it otherwise (a thread's own
 * object is a root: its stack's `this` is not listed), by thread, top of each stack first; each
 * frame once (a frame holds an object in two slots alike). Undefined when none.
 */
export function stackFramesOf(g: ObjectGraph, v: number): { frames: StackFrameHold[]; more: number } | undefined {
  const s = g.stackLocals;
  if (s === undefined) return undefined;
  const lo = firstEntryOf(s, v);
  const frames: StackFrameHold[] = [];
  let more = 0;
  let last = '';
  for (let i = lo; i < s.objects.length && s.objects[i] === v; i++) {
    const thread = s.threads[i]!;
    const depth = s.depths[i]!;
    const key = `${thread} ${depth}`;
    if (key === last) continue; // sorted by thread and depth: a repeat follows its first
    last = key;
    if (frames.length === FRAMES_LISTED) {
      more++;
      continue;
    }
    const frame = s.frames[i]!;
    frames.push({ ...(thread >= 0 ? { threadId: idText(g, idOf(g, thread)) } : {}), depth, ...(frame >= 0 ? { frame: s.frameTexts[frame]! } : {}) });
  }
  return frames.length > 0 ? { frames, more } : undefined;
}

/** The top frame of `thread`'s stack whose local variable holds `v` (whatever the list stackFramesOf keeps), or undefined. */
export function frameOfThreadHolding(g: ObjectGraph, thread: number, v: number): StackFrameHold | undefined {
  const s = g.stackLocals;
  if (s === undefined) return undefined;
  for (let i = firstEntryOf(s, v); i < s.objects.length && s.objects[i] === v; i++) {
    if (s.threads[i] !== thread) continue;
    const frame = s.frames[i]!;
    return { threadId: idText(g, idOf(g, thread)), depth: s.depths[i]!, ...(frame >= 0 ? { frame: s.frameTexts[frame]! } : {}) };
  }
  return undefined;
}

/** Where the entries of object `v` start (binary search: the entries are ascending by object). */
function firstEntryOf(s: StackLocals, v: number): number {
  let lo = 0;
  let hi = s.objects.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (s.objects[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
