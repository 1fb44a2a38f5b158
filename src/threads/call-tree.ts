/**
 * All threads' stacks merged into one tree from the thread's start down to its top frame: what a
 * flame graph draws and a call-tree view lists. Each node counts the threads (or thread samples, over
 * a series) whose stack passes through it, by state, so a wide node where most threads are BLOCKED
 * shows where work piles up. Threads with no Java frames (GC, compiler) are counted at the root only.
 */
import type { JavaThreadState, ThreadDump } from '../model/thread-dump.js';

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

function node(frame: string): CallTreeNode {
  return { frame, count: 0, self: 0, states: {}, children: [] };
}

/**
 * The merged tree of the given dumps' threads (one dump, or every dump of a series: a thread then
 * counts once per dump it is in). Children are ordered widest first, then by name, so the drawing is
 * the same for the same input.
 */
export function callTree(dumps: readonly ThreadDump[]): CallTreeNode {
  const root = node('');
  // Children by frame name per node while building; arrays are filled and sorted after.
  const index = new Map<CallTreeNode, Map<string, CallTreeNode>>();
  const childOf = (parent: CallTreeNode, frame: string): CallTreeNode => {
    let byFrame = index.get(parent);
    if (byFrame === undefined) index.set(parent, (byFrame = new Map()));
    let c = byFrame.get(frame);
    if (c === undefined) {
      byFrame.set(frame, (c = node(frame)));
      parent.children.push(c);
    }
    return c;
  };
  for (const dump of dumps) {
    for (const th of dump.threads) {
      let at = root;
      count(at, th.state, th.frames.length === 0);
      // Frames are stored top first; the tree grows from the bottom of the stack (the thread's start).
      for (let i = th.frames.length - 1; i >= 0; i--) {
        at = childOf(at, th.frames[i]!.qualified);
        count(at, th.state, i === 0);
      }
    }
  }
  sortTree(root);
  return root;
}

function count(n: CallTreeNode, state: JavaThreadState, top: boolean): void {
  n.count++;
  if (top) n.self++;
  n.states[state] = (n.states[state] ?? 0) + 1;
}

function sortTree(root: CallTreeNode): void {
  const stack = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    n.children.sort((a, b) => b.count - a.count || (a.frame < b.frame ? -1 : a.frame > b.frame ? 1 : 0));
    stack.push(...n.children);
  }
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
