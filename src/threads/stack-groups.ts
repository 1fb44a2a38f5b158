/** Threads with identical stacks (same frames, same state), and the per-state counts of a dump. */
import type { JavaThreadState, StackFrame, ThreadDump } from '../model/thread-dump.js';

export interface StackGroup {
  readonly state: JavaThreadState;
  readonly frames: StackFrame[];
  readonly threads: number[];
}

export function groupIdenticalStacks(dump: ThreadDump): StackGroup[] {
  const frameIds = new Map<StackFrame, number>();
  const groups = new Map<string, StackGroup>();
  dump.threads.forEach((th, i) => {
    let key = th.state;
    for (const f of th.frames) {
      let id = frameIds.get(f);
      if (id === undefined) frameIds.set(f, (id = frameIds.size));
      key += ',' + id;
    }
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { state: th.state, frames: th.frames, threads: [] }));
    g.threads.push(i);
  });
  return [...groups.values()].sort((a, b) => b.threads.length - a.threads.length || a.threads[0]! - b.threads[0]!);
}

export function stateSummary(dump: ThreadDump): Record<JavaThreadState, number> {
  const s: Record<JavaThreadState, number> = { NEW: 0, RUNNABLE: 0, BLOCKED: 0, WAITING: 0, TIMED_WAITING: 0, TERMINATED: 0, UNKNOWN: 0 };
  for (const th of dump.threads) s[th.state]++;
  return s;
}
