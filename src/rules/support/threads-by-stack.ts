/**
 * Threads picked by what their stack says, asked once per group of identical stacks. A rule that
 * looks for a frame (an appender's lock, an event loop, a pinned virtual thread) would otherwise read
 * the frames of every thread: on a dump of 200,000 threads in a few hundred distinct stacks, that is
 * most of the rule's time for nothing. The model's thread groups are the dump's distinct (stack,
 * state) pairs, so a question about the frames and the state has one answer per group.
 */
import type { Model } from '../../model/model.js';
import type { JavaThreadState, StackFrame } from '../../model/thread-dump.js';

/** The indexes, in dump `dump`, of the threads whose stack and state `pick` accepts, in dump order. */
export function threadsByStack(model: Model, dump: number, pick: (frames: StackFrame[], state: JavaThreadState) => boolean): number[] {
  const threads = model.dumps[dump]!.threads;
  const out: number[] = [];
  for (const g of model.threadGroups) {
    if (g.dump !== dump) continue;
    const first = threads[g.threads[0]!.thread]!;
    if (!pick(first.frames, first.state)) continue;
    for (const t of g.threads) out.push(t.thread);
  }
  return out.sort((a, b) => a - b);
}
