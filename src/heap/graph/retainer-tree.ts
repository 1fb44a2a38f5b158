/** The top of the dominator tree, for reports and the UI: the biggest top-level dominators and, under each, the biggest it dominates. */
import type { RetainerNode } from '../../model/memory.js';
import { retainedOf, type RetainedSizes } from './dominators.js';
import { type DominatedLists, objectAt, sortedChildren } from './memory-summary.js';
import type { ObjectGraph } from './object-graph.js';

export type { RetainerNode } from '../../model/memory.js';

export interface RetainerTreeShape {
  /** Top-level dominators shown. */
  readonly top: number;
  /** Children shown under each node. */
  readonly children: number;
  /** Levels, the top one included. */
  readonly depth: number;
  /** Below the top level, children retaining less than this share of the heap are left out (counted in `more`). */
  readonly minShare?: number;
}

export function retainerTree(g: ObjectGraph, t: RetainedSizes, lists: DominatedLists, options: RetainerTreeShape): RetainerNode[] {
  const minBytes = (options.minShare ?? 0) * retainedOf(t, t.root);
  const build = (parent: number, limit: number, depth: number): RetainerNode[] => {
    sortedChildren(lists, t, parent);
    const from = lists.start[parent]!;
    const to = lists.start[parent + 1]!;
    const nodes: RetainerNode[] = [];
    // Children are sorted largest first, so the first one too small ends the list.
    for (let c = from; c < Math.min(to, from + limit) && (parent === t.root || retainedOf(t, lists.children[c]!) >= minBytes); c++) {
      const v = lists.children[c]!;
      const kids = depth > 1 ? build(v, options.children, depth - 1) : [];
      let moreObjects = 0;
      let moreBytes = 0;
      for (let k = lists.start[v]! + kids.length; k < lists.start[v + 1]!; k++) {
        moreObjects++;
        moreBytes += retainedOf(t, lists.children[k]!);
      }
      nodes.push({ object: objectAt(g, t, v), children: kids, more: { objects: moreObjects, bytes: moreBytes } });
    }
    return nodes;
  };
  return build(t.root, options.top, options.depth);
}

/** The object indexes of a tree's nodes, in preorder. */
export function treeIndexes(nodes: readonly RetainerNode[]): number[] {
  const out: number[] = [];
  const walk = (list: readonly RetainerNode[]) => {
    for (const n of list) {
      out.push(n.object.index);
      walk(n.children);
    }
  };
  walk(nodes);
  return out;
}

/** The same tree with a path on each node, taken in preorder from `paths`. */
export function withPaths(nodes: readonly RetainerNode[], paths: readonly RetainerNode['path'][]): RetainerNode[] {
  let k = 0;
  const walk = (list: readonly RetainerNode[]): RetainerNode[] =>
    list.map((n) => {
      const path = paths[k++];
      return { ...n, ...(path !== undefined ? { path } : {}), children: walk(n.children) };
    });
  return walk(nodes);
}
