/** The top of the dominator tree, for reports: the biggest top-level dominators and, under each, the biggest it dominates. */
import type { DominatorTree } from './dominators.js';
import { objectAt, type DominatedLists } from './memory-summary.js';
import type { ObjectGraph } from './object-graph.js';
import type { RetainedObject } from './memory-summary.js';

/** A retainer as reports show it: the object, and the ones it dominates, biggest first. */
export interface RetainerNode {
  readonly object: RetainedObject;
  readonly children: RetainerNode[];
  /** Objects it dominates that the tree leaves out, and what they retain. */
  readonly more: { readonly objects: number; readonly bytes: number };
}

export function retainerTree(g: ObjectGraph, t: DominatorTree, lists: DominatedLists, options: { top: number; children: number; depth: number }): RetainerNode[] {
  const build = (parent: number, limit: number, depth: number): RetainerNode[] => {
    const from = lists.start[parent]!;
    const to = lists.start[parent + 1]!;
    const shown = Math.min(limit, to - from);
    const nodes: RetainerNode[] = [];
    for (let c = from; c < from + shown; c++) {
      const v = lists.children[c]!;
      const kids = depth > 1 ? build(v, options.children, depth - 1) : [];
      let moreObjects = 0;
      let moreBytes = 0;
      for (let k = lists.start[v]! + kids.length; k < lists.start[v + 1]!; k++) {
        moreObjects++;
        moreBytes += t.retained[lists.children[k]!]!;
      }
      nodes.push({ object: objectAt(g, t, v), children: kids, more: { objects: moreObjects, bytes: moreBytes } });
    }
    return nodes;
  };
  return build(t.root, options.top, options.depth);
}
