/**
 * One shared array per distinct stack. Threads whose bodies differ only in lock addresses (each
 * holding its own objects) still have identical frames; giving them one array lets every answer about
 * the stack be computed once (perStack) and stack groups be found by the array, and the frames of
 * 100k threads take the memory of their distinct stacks.
 *
 * A trie over frame objects (interned, so identity is equality), walked from the bottom frame, where
 * the stacks of one pool agree. Each node remembers the child taken last: the threads of a pool take
 * the same path, so most steps are one comparison.
 */
import type { StackFrame } from '../model/thread-dump.js';
import { markSharedStack } from './per-stack.js';

interface StackNode {
  readonly frame: StackFrame | undefined;
  /** The child taken last; `children` holds them all once there are two. */
  last: StackNode | undefined;
  children: Map<StackFrame, StackNode> | undefined;
  /** The first array that ended here, handed to every later thread with these frames. */
  stack: StackFrame[] | undefined;
}

/**
 * Past this many nodes no new ones are made (stacks off the known paths are left as they are):
 * a dump of deep stacks that all differ would otherwise build a node for every frame it holds.
 */
const MAX_STACK_NODES = 256 * 1024;

const newNode = (frame: StackFrame | undefined): StackNode => ({ frame, last: undefined, children: undefined, stack: undefined });

export class StackInterner {
  private readonly root = newNode(undefined);
  private nodes = 0;

  constructor(private readonly maxNodes = MAX_STACK_NODES) {}

  /** The shared array with these frames: `frames` itself when it is the first, else the first one. */
  intern(frames: StackFrame[]): StackFrame[] {
    if (frames.length === 0) return frames;
    let node = this.root;
    for (let i = frames.length - 1; i >= 0; i--) {
      const f = frames[i]!;
      const last = node.last;
      let next = last !== undefined && last.frame === f ? last : node.children?.get(f);
      if (next === undefined) {
        if (this.nodes >= this.maxNodes) return frames;
        this.nodes++;
        next = newNode(f);
        if (last !== undefined) (node.children ??= new Map([[last.frame!, last]])).set(f, next);
      }
      node.last = next;
      node = next;
    }
    const stack = node.stack;
    if (stack === undefined) {
      node.stack = frames;
      return frames;
    }
    if (stack !== frames) markSharedStack(stack);
    return stack;
  }
}
