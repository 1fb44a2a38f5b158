/**
 * The growth's parts on hand-built graphs and tables: a class's holder is the deepest object that
 * dominates at least half of its instances (not the root, not an instance of the class), with the classes
 * down the dominator tree to it (what matches it in another dump), and none when
 * the instances are spread; the trend lists only classes that changed, biggest shallow growth first.
 */
import { describe, expect, test } from 'vitest';

import { dominatorTree } from '../../src/heap/graph/dominators.js';
import { classHolders, classTrends } from '../../src/heap/graph/growth.js';
import { dominatedLists, memorySummary } from '../../src/heap/graph/memory-summary.js';
import type { ObjectGraph } from '../../src/heap/graph/object-graph.js';
import { type GrowthChoice, growthPaths } from '../../src/heap/memory/growth.js';

/** A graph of objects of the given classes, with these edges and roots. */
function graphOf(classes: string[], edges: Array<[number, number]>, roots: number[]): ObjectGraph {
  const n = classes.length;
  const names = [...new Set(classes)];
  const start = new Int32Array(n + 1);
  for (const [a] of edges) start[a + 1]!++;
  for (let i = 1; i <= n; i++) start[i]! += start[i - 1]!;
  const cursor = start.slice();
  const out = new Int32Array(edges.length);
  for (const [a, b] of edges) out[cursor[a]!++] = b;
  return {
    objects: n,
    ids: Uint32Array.from({ length: n }, (_, i) => (0x1000 + 16 * i) / 8),
    idScale: 8,
    classOf: Int32Array.from(classes.map((c) => names.indexOf(c))),
    classNames: names,
    shallow: Uint32Array.from(classes.map(() => 16)),
    edgeStart: start,
    edges: out,
    roots: Int32Array.from(roots),
    rootKinds: {},
    missingReferences: 0,
    warnings: [],
    classObjectNames: new Map(),
    referents: { references: new Int32Array(0), referents: new Int32Array(0) },
    rootKindOf: new Map(),
  };
}

function holders(g: ObjectGraph, names: string[]) {
  const t = dominatorTree(g);
  return classHolders(g, t, dominatedLists(g, t), names);
}

describe('classHolders', () => {
  test('the deepest object over half of the instances: the array inside the holder, not the holder above it', () => {
    // 0 Registry -> 1 Item[] -> 2..9 Item; 10 Other -> 11, 12 Item (2 of 10 elsewhere).
    const classes = ['Registry', 'Item[]', ...Array<string>(8).fill('Item'), 'Other', 'Item', 'Item'];
    const edges: Array<[number, number]> = [[0, 1], ...[2, 3, 4, 5, 6, 7, 8, 9].map((i): [number, number] => [1, i]), [10, 11], [10, 12]];
    expect(holders(graphOf(classes, edges, [0, 10]), ['Item'])).toEqual([
      { className: 'Item', holder: 1, shape: 'Registry > Item[]', instances: 8, ofInstances: 10 },
    ]);
  });

  test('control: instances spread over five holders of two each have no holder', () => {
    const classes: string[] = [];
    const edges: Array<[number, number]> = [];
    const roots: number[] = [];
    for (let h = 0; h < 5; h++) {
      roots.push(classes.length);
      const at = classes.length;
      classes.push('Holder', 'Item', 'Item');
      edges.push([at, at + 1], [at, at + 2]);
    }
    expect(holders(graphOf(classes, edges, roots), ['Item'])).toEqual([{ className: 'Item', holder: -1, shape: '', instances: 0, ofInstances: 10 }]);
  });

  test('a chain of instances stops above its first link; a class the heap lacks has none', () => {
    // 0 Queue -> 1 Node -> 2 Node -> 3 Node: each link dominates the next.
    const g = graphOf(
      ['Queue', 'Node', 'Node', 'Node'],
      [
        [0, 1],
        [1, 2],
        [2, 3],
      ],
      [0],
    );
    expect(holders(g, ['Node', 'Missing'])).toEqual([
      { className: 'Node', holder: 0, shape: 'Queue', instances: 3, ofInstances: 3 },
      { className: 'Missing', holder: -1, shape: '', instances: 0, ofInstances: 0 },
    ]);
  });
});

test('classTrends: the classes that changed, biggest shallow growth first, a new class from zero', () => {
  const row = (className: string, instances: number, shallow: number) => ({ className, instances, shallow, retained: shallow });
  const trends = classTrends([
    [row('Same', 5, 80), row('Grows', 1, 16), row('Shrinks', 4, 64)],
    [row('Same', 5, 80), row('Grows', 3, 48), row('Shrinks', 2, 32), row('New', 10, 160)],
  ]);
  expect(trends.map((t) => [t.className, t.instances, t.shallow])).toEqual([
    ['New', [0, 10], [0, 160]],
    ['Grows', [1, 3], [16, 48]],
    ['Shrinks', [4, 2], [64, 32]],
  ]);
});

test("growthPaths: the program's own class that grew gets its holder even when the JDK's classes fill the first five", () => {
  // Root 0 holds an array 1 of many JDK objects; root 2 (the program's registry) holds two com.acme.Orders.
  const jdk = ['byte[]', 'java.lang.String', 'java.util.HashMap$Node', 'java.lang.Long', 'int[]', 'char[]'];
  const classes = ['java.lang.Object[]', ...jdk.flatMap((c) => [c, c, c]), 'com.acme.Registry', 'com.acme.Order', 'com.acme.Order'];
  const registry = classes.length - 3;
  const edges: Array<[number, number]> = [
    ...jdk.flatMap((_, k) => [0, 1, 2].map((i): [number, number] => [0, 1 + 3 * k + i])),
    [registry, registry + 1],
    [registry, registry + 2],
  ];
  const g = graphOf(classes, edges, [0, registry]);
  const t = dominatorTree(g);
  const lists = dominatedLists(g, t);
  const summary = memorySummary(g, t, { topClasses: Number.POSITIVE_INFINITY }, lists);
  const choice: GrowthChoice = { trends: [], holders: [], held: new Map() };
  // The baseline had none of any of them.
  const targets = growthPaths([[]], choice)({ graph: g, tree: t, lists, summary });
  expect(choice.held.get('com.acme.Order')).toEqual({ instances: 2, ofInstances: 2 });
  expect(choice.holders.find((h) => h.classes.includes('com.acme.Order'))).toMatchObject({ object: registry, shape: 'com.acme.Registry' });
  expect(targets).toContain(registry);
});
