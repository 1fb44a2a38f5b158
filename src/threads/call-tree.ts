/**
 * All threads' stacks merged into one tree from the thread's start down to its top frame: what a
 * flame graph draws and a call-tree view lists. Each node counts the threads (or thread samples, over
 * a series) whose stack passes through it, by state, so a wide node where most threads are BLOCKED
 * shows where work piles up. Threads with no Java frames (GC, compiler) are counted at the root only.
 */
import type { CallTreeNode, CallTreesModel } from '../model/call-tree.js';
import type { JavaThreadState, StackFrame, ThreadDump } from '../model/thread-dump.js';

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
  // Threads that share a frames array (identical bodies: most of a big pool) and a state are walked
  // once, with their number: 200,000 threads in a few hundred stacks are a few hundred walks.
  const alike = new Map<readonly StackFrame[], Partial<Record<JavaThreadState, number>>>();
  for (const dump of dumps) {
    for (const th of dump.threads) {
      let byState = alike.get(th.frames);
      if (byState === undefined) alike.set(th.frames, (byState = {}));
      byState[th.state] = (byState[th.state] ?? 0) + 1;
    }
  }
  for (const [frames, byState] of alike) {
    for (const [state, threads] of Object.entries(byState) as Array<[JavaThreadState, number]>) {
      let at = root;
      count(at, state, frames.length === 0, threads);
      // Frames are stored top first; the tree grows from the bottom of the stack (the thread's start).
      for (let i = frames.length - 1; i >= 0; i--) {
        at = childOf(at, frames[i]!.qualified);
        count(at, state, i === 0, threads);
      }
    }
  }
  sortTree(root);
  return root;
}

function count(n: CallTreeNode, state: JavaThreadState, top: boolean, threads: number): void {
  n.count += threads;
  if (top) n.self += threads;
  n.states[state] = (n.states[state] ?? 0) + threads;
}

function sortTree(root: CallTreeNode): void {
  const stack = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    n.children.sort((a, b) => b.count - a.count || (a.frame < b.frame ? -1 : a.frame > b.frame ? 1 : 0));
    stack.push(...n.children);
  }
}

/** The trees a model carries: every dump merged, and each dump alone (what the HTML report and the UI draw). */
export function callTreesOf(dumps: readonly ThreadDump[]): CallTreesModel {
  const merged = callTree(dumps);
  // One dump's own tree is the merged one: built once.
  return { merged, perDump: dumps.length === 1 ? [merged] : dumps.map((d) => callTree([d])) };
}
