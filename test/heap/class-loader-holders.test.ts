/**
 * What keeps each class loader alive, on a small graph made by hand to have each kind at once (the
 * real JVM's heap is test/heap/class-loaders.test.ts): a loader kept through a thread's ThreadLocalMap
 * (the ThreadLocal named by the static that holds it), one through a static of a class another
 * loader defined, one held through a weak reference only (no holder); two class names defined by the
 * same loaders are one entry.
 */
import { describe, expect, it } from 'vitest';

import { analyseGraph } from '../../src/heap/graph/heap-memory.js';
import type { ObjectGraph } from '../../src/heap/graph/object-graph.js';

const CLASS = 'java.lang.Class';
/** index: [class of the object, its edges] */
const OBJECTS: Array<[string, number[]]> = [
  ['java.lang.Thread', [1]], // 0: the thread, a GC root
  ['java.lang.ThreadLocal$ThreadLocalMap', [2]], // 1
  ['java.lang.ThreadLocal$ThreadLocalMap$Entry', [9, 3]], // 2: referent 9 (weak), value 3
  ['com.x.Plugin', [5]], // 3: the plugin of deployment 1
  [CLASS, [10, 12]], // 4: com.x.Host (the app loader's), a GC root
  [CLASS, [7, 9]], // 5: com.x.Plugin of loader 7, static CURRENT -> 9
  [CLASS, [8]], // 6: com.x.Plugin of loader 8
  ['java.net.URLClassLoader', [5, 11]], // 7
  ['java.net.URLClassLoader', [6, 13]], // 8
  ['java.lang.ThreadLocal', []], // 9
  ['com.x.Plugin', [6]], // 10: the plugin of deployment 2, in Host.INSTANCES
  [CLASS, [7]], // 11: com.x.Helper of loader 7
  ['jdk.internal.loader.ClassLoaders$AppClassLoader', []], // 12
  [CLASS, [8]], // 13: com.x.Helper of loader 8
  ['java.net.URLClassLoader', [16]], // 14: held only through the weak reference 15
  ['java.lang.ref.WeakReference', [14]], // 15: a GC root
  [CLASS, [14]], // 16: com.x.Plugin of loader 14
];
const NAMES: Record<string, string> = {
  '0>1': 'threadLocals',
  '1>2': 'table',
  '2>3': 'value',
  '3>5': 'its class',
  '5>7': 'class loader',
  '5>9': 'static CURRENT',
  '4>10': 'static INSTANCES',
  '10>6': 'its class',
  '6>8': 'class loader',
};

function graph(): ObjectGraph {
  const classNames = [...new Set(OBJECTS.map(([c]) => c))];
  const edges = OBJECTS.flatMap(([, e]) => e);
  const edgeStart = new Int32Array(OBJECTS.length + 1);
  OBJECTS.forEach(([, e], i) => (edgeStart[i + 1] = edgeStart[i]! + e.length));
  const n = OBJECTS.length;
  return {
    objects: n,
    ids: Uint32Array.from({ length: n }, (_, i) => (0x1000 + 16 * i) / 8),
    idScale: 8,
    classOf: Int32Array.from(OBJECTS.map(([c]) => classNames.indexOf(c))),
    classNames,
    shallow: Uint32Array.from({ length: n }, () => 16),
    edgeStart,
    edges: Int32Array.from(edges),
    roots: Int32Array.from([0, 4, 15]),
    rootKinds: {},
    missingReferences: 0,
    warnings: [],
    classObjectNames: new Map([
      [4, 'com.x.Host'],
      [5, 'com.x.Plugin'],
      [6, 'com.x.Plugin'],
      [11, 'com.x.Helper'],
      [13, 'com.x.Helper'],
      [16, 'com.x.Plugin'],
    ]),
    definingLoaders: new Map([
      [4, 12],
      [5, 7],
      [6, 8],
      [11, 7],
      [13, 8],
      [16, 14],
    ]),
    referents: { references: Int32Array.from([2, 15]), referents: Int32Array.from([9, 14]) },
    rootKindOf: new Map([
      [0, 'thread'],
      [4, 'system-class'],
      [15, 'jni-global'],
    ]),
  };
}

describe('what keeps each class loader alive', () => {
  it('a ThreadLocal on a thread, a static of another loader, nothing strong; names by the same loaders grouped', async () => {
    const g = graph();
    const named = {
      graph: g,
      stepNames: async (paths: ReadonlyArray<readonly number[]>) => paths.map((p) => p.slice(1).map((to, k) => NAMES[`${p[k]}>${to}`] ?? '?')),
    };
    const { summary } = await analyseGraph(named, { suspectPaths: true });
    const [plugin, helper, ...rest] = summary.classLoaders!.classes;
    expect(rest).toEqual([]);
    expect(plugin).toMatchObject({ className: 'com.x.Plugin', loaderCount: 3, sameLoadersClasses: 0, classes: 3, loaderClasses: ['java.net.URLClassLoader'] });
    const keptBy = Object.fromEntries(plugin!.loaders.map((l) => [l.loader.index, l.keptBy]));
    expect(keptBy[7]).toMatchObject({ kind: 'thread-local', field: 'com.x.Plugin.CURRENT', holder: { index: 0 } });
    expect(keptBy[8]).toEqual({ kind: 'static', field: 'com.x.Host.INSTANCES' });
    expect(keptBy[14]).toBeUndefined();
    expect(plugin!.loaders.find((l) => l.loader.index === 14)!.path).toEqual([]);
    expect(plugin!.keptBy.map((x) => [x.holder?.kind ?? null, x.loaders])).toEqual(
      expect.arrayContaining([
        ['thread-local', 1],
        ['static', 1],
        [null, 1],
      ]),
    );
    // com.x.Helper: the two loaders that also define com.x.Plugin, but not the third: an entry of its own.
    expect(helper).toMatchObject({ className: 'com.x.Helper', loaderCount: 2 });
  });

  it('two names defined by exactly the same loaders are one entry; a graph without loaders says nothing', async () => {
    const g = graph();
    const sameSet = { ...g, definingLoaders: new Map([...g.definingLoaders!].filter(([cls]) => cls !== 16)) };
    const named = { graph: sameSet, stepNames: async (paths: ReadonlyArray<readonly number[]>) => paths.map((p) => p.slice(1).map(() => '?')) };
    const { summary } = await analyseGraph(named, { suspectPaths: true });
    expect(summary.classLoaders!.classes.map((c) => [c.className, c.sameLoadersClasses, c.loaderCount])).toEqual([['com.x.Helper', 1, 2]]);
    const { definingLoaders: _, ...withoutLoaders } = g;
    const none = await analyseGraph({ graph: withoutLoaders, stepNames: named.stepNames }, { suspectPaths: true });
    expect(none.summary.classLoaders).toBeUndefined();
  });
});
