/**
 * All threads' stacks merged into one tree from the thread's start down to its top frame (built by
 * threads/call-tree.ts): what a flame graph draws and a call-tree view lists.
 */
import type { JavaThreadState } from './thread-dump.js';

export interface CallTreeNode {
  /** `Class.method`, or '' for the root. */
  readonly frame: string;
  /** Threads whose stack passes through this node. */
  count: number;
  /** Of them, those whose top frame is this node (the stack ends here). */
  self: number;
  readonly states: Partial<Record<JavaThreadState, number>>;
  readonly children: CallTreeNode[];
}

/** The call trees of a model's thread dumps. */
export interface CallTreesModel {
  /** Every dump's threads merged (a thread counts once per dump it is in). */
  readonly merged: CallTreeNode;
  /** Each dump's own tree, in the model's dump order. */
  readonly perDump: readonly CallTreeNode[];
}

/** A node's threads by state, most first (what its tooltip or row says of it). */
export function statesByCount(n: CallTreeNode): Array<[JavaThreadState, number]> {
  return (Object.entries(n.states) as Array<[JavaThreadState, number]>).sort((a, b) => b[1] - a[1]);
}

/** The state most of a node's threads are in (ties: the order of `STATE_ORDER`). */
export function mainState(n: CallTreeNode): JavaThreadState {
  let best: JavaThreadState = 'UNKNOWN';
  let most = -1;
  for (const s of STATE_ORDER) {
    const c = n.states[s] ?? 0;
    if (c > most) {
      best = s;
      most = c;
    }
  }
  return best;
}

/** Blocked first: of equal counts, the state that is more likely the trouble wins. */
const STATE_ORDER: readonly JavaThreadState[] = ['BLOCKED', 'RUNNABLE', 'WAITING', 'TIMED_WAITING', 'NEW', 'TERMINATED', 'UNKNOWN'];
