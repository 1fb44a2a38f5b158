/** Threads with identical stacks (same frames, same state), and the per-state counts of a dump. */
import type { JavaThreadState, StackFrame, ThreadDump } from '../model/thread-dump.js';

export interface StackGroup {
  readonly state: JavaThreadState;
  readonly frames: StackFrame[];
  readonly threads: number[];
}

/**
 * Groups by walking a trie keyed by frame objects (interned, so identity is equality): no key
 * strings are built, which matters with 100k threads of 20 frames. Threads that share a frames array
 * (identical bodies, see ThreadBodies) find their group by the array, without the walk.
 */
export function groupIdenticalStacks(dump: ThreadDump): StackGroup[] {
  interface Node {
    readonly next: Map<StackFrame, Node>;
    group?: StackGroup;
  }
  interface Root extends Node {
    readonly byArray: Map<readonly StackFrame[], StackGroup>;
  }
  const roots = new Map<JavaThreadState, Root>();
  const groups: StackGroup[] = [];
  dump.threads.forEach((th, i) => {
    let root = roots.get(th.state);
    if (!root) roots.set(th.state, (root = { next: new Map(), byArray: new Map() }));
    let group = root.byArray.get(th.frames);
    if (group === undefined) {
      let node: Node = root;
      for (const f of th.frames) {
        let child = node.next.get(f);
        if (!child) node.next.set(f, (child = { next: new Map() }));
        node = child;
      }
      if (!node.group) groups.push((node.group = { state: th.state, frames: th.frames, threads: [] }));
      group = node.group;
      root.byArray.set(th.frames, group);
    }
    group.threads.push(i);
  });
  return groups.sort((a, b) => b.threads.length - a.threads.length || a.threads[0]! - b.threads[0]!);
}

/** Threads per state, from the dump's stack groups (every thread is in one): a few hundred additions, not one per thread. */
export function stateSummary(groups: readonly StackGroup[]): Record<JavaThreadState, number> {
  const s: Record<JavaThreadState, number> = { NEW: 0, RUNNABLE: 0, BLOCKED: 0, WAITING: 0, TIMED_WAITING: 0, TERMINATED: 0, UNKNOWN: 0 };
  for (const g of groups) s[g.state] += g.threads.length;
  return s;
}
