/**
 * Dominators and retained sizes against independent references: the definition itself (v dominates
 * w when w cannot be reached from the root without v) on small and random graphs, and the
 * Cooper-Harvey-Kennedy iterative algorithm on the real-JVM fixture heaps; shallow totals and class
 * counts against the histogram.
 */
import { tmpdir } from 'node:os';

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';

import { ColumnsAside, type GraphColumn } from '../../src/heap/graph/columns-aside.js';
import { dominatorTree, retainedOf } from '../../src/heap/graph/dominators.js';
import { memorySummary } from '../../src/heap/graph/memory-summary.js';
import type { ObjectGraph } from '../../src/heap/graph/object-graph.js';
import { hprofObjectGraph } from '../../src/heap/hprof/graph/hprof-graph.js';
import { hprofHistogram } from '../../src/heap/hprof/hprof-histogram.js';
import { countText } from '../../src/model/count-text.js';
import { classSuspectText } from '../../src/model/memory.js';
import { chkIdom } from './reference-dominators.js';

/** A graph of n objects, each of the given size, with these edges and roots. */
function graphOf(n: number, edges: Array<[number, number]>, roots: number[], sizes?: number[]): ObjectGraph {
  const start = new Int32Array(n + 1);
  for (const [a] of edges) start[a + 1]!++;
  for (let i = 1; i <= n; i++) start[i]! += start[i - 1]!;
  const cursor = start.slice();
  const out = new Int32Array(edges.length);
  for (const [a, b] of edges) out[cursor[a]!++] = b;
  return {
    objects: n,
    // As an HPROF graph keeps them: id/8 and sizes in 32 bits.
    ids: Uint32Array.from({ length: n }, (_, i) => (0x1000 + 16 * i) / 8),
    idScale: 8,
    classOf: new Int32Array(n),
    classNames: ['T'],
    shallow: Uint32Array.from(sizes ?? Array.from({ length: n }, () => 16)),
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

/** Copies of the columns ColumnsAside may lend. */
function columnsOf(g: ObjectGraph) {
  return { ids: g.ids.slice(), classOf: g.classOf.slice(), shallow: g.shallow.slice(), edgeStart: g.edgeStart.slice(), edges: g.edges.slice() };
}

/** The definition: which objects the root reaches when `without` is taken out. */
function reachWithout(g: ObjectGraph, without: number): Uint8Array {
  const seen = new Uint8Array(g.objects);
  const stack = [...g.roots].filter((r) => r !== without);
  for (const r of stack) seen[r] = 1;
  while (stack.length > 0) {
    const v = stack.pop()!;
    for (let e = g.edgeStart[v]!; e < g.edgeStart[v + 1]!; e++) {
      const w = g.edges[e]!;
      if (w !== without && seen[w] === 0) {
        seen[w] = 1;
        stack.push(w);
      }
    }
  }
  return seen;
}

/** Retained sizes by the definition: what is no longer reachable without v, v included. */
function naiveRetained(g: ObjectGraph): number[] {
  const all = reachWithout(g, -1);
  return Array.from({ length: g.objects }, (_, v) => {
    if (all[v] === 0) return 0;
    const rest = reachWithout(g, v);
    let bytes = 0;
    for (let w = 0; w < g.objects; w++) if (all[w] === 1 && rest[w] === 0) bytes += g.shallow[w]!;
    return bytes;
  });
}

describe('dominator tree', () => {
  test('a chain, a diamond, a shared object, a cycle and an island', () => {
    // 0 -> 1 -> 2 (chain); 0 -> 3, 0 -> 4, 3 -> 5, 4 -> 5 (diamond: 5 is 0's); 6 <-> 7 (cycle under root 6); 8 -> 9 unreachable
    const g = graphOf(
      10,
      [
        [0, 1],
        [1, 2],
        [0, 3],
        [0, 4],
        [3, 5],
        [4, 5],
        [6, 7],
        [7, 6],
      ],
      [0, 6],
    );
    const t = dominatorTree(g);
    expect([...t.idom]).toEqual([10, 0, 1, 0, 0, 0, 10, 6, -1, -1]);
    expect(Array.from({ length: 10 }, (_, v) => retainedOf(t, v))).toEqual([96, 32, 16, 16, 16, 16, 32, 16, 0, 0]);
    expect(retainedOf(t, 10)).toBe(128);
    // Sizes that are multiples of 8 are kept as eighths in 32 bits.
    expect([t.retained instanceof Uint32Array, t.retainedUnit]).toEqual([true, 8]);
    expect(t.unreachable).toEqual({ objects: 2, bytes: 32 });
    // Two GC roots reaching one object: the virtual root dominates it.
    const shared = dominatorTree(
      graphOf(
        3,
        [
          [0, 2],
          [1, 2],
        ],
        [0, 1],
      ),
    );
    expect([...shared.idom]).toEqual([3, 3, 3]);
  });

  test('retained sizes past 32 bits: kept as doubles, exact', () => {
    // A chain of three arrays of about 4 GB each (an odd size: no unit of 8).
    const big = 4_000_000_001;
    const t = dominatorTree(
      graphOf(
        3,
        [
          [0, 1],
          [1, 2],
        ],
        [0],
        [big, big, big],
      ),
    );
    expect(t.retained instanceof Float64Array).toBe(true);
    expect([0, 1, 2, 3].map((v) => retainedOf(t, v))).toEqual([3 * big, 2 * big, big, 3 * big]);
    // Sizes in eighths that fit 32 bits however large the heap's bytes: still 32 bits.
    const eighths = dominatorTree(
      graphOf(
        3,
        [
          [0, 1],
          [1, 2],
        ],
        [0],
        [4_000_000_000, 4_000_000_000, 8],
      ),
    );
    expect([eighths.retained instanceof Uint32Array, eighths.retainedUnit, retainedOf(eighths, 0)]).toEqual([true, 8, 8_000_000_008]);
  });

  test('random graphs: retained sizes equal the definition', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 24 }).chain((n) =>
          fc.record({
            n: fc.constant(n),
            edges: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: n * 3 }),
            roots: fc.uniqueArray(fc.nat(n - 1), { minLength: 1, maxLength: 3 }),
            sizes: fc.array(fc.integer({ min: 8, max: 200 }), { minLength: n, maxLength: n }),
            // Sizes all multiples of 8 (as HotSpot's are): the retained sizes are kept in eighths.
            aligned: fc.boolean(),
          }),
        ),
        ({ n, edges, roots, sizes, aligned }) => {
          const g = graphOf(n, edges, roots, aligned ? sizes.map((s) => s * 8) : sizes);
          const t = dominatorTree(g);
          expect(Array.from({ length: n }, (_, v) => retainedOf(t, v))).toEqual(naiveRetained(g));
          expect([...t.idom]).toEqual([...chkIdom(g)]);
          return true;
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('on the real-JVM fixture heaps', { timeout: 120_000 }, () => {
  for (const heap of [
    'fixtures/incidents/active-count-leak/heap.hprof.gz',
    'fixtures/heap/jdk17/heap.hprof.gz',
    'fixtures/incidents/okhttp-dispatcher-queue/heap.hprof.gz',
  ]) {
    test(heap, async () => {
      const g = await hprofObjectGraph(heap);
      const h = await hprofHistogram(heap);
      // Every object, with the histogram's sizes.
      expect(g.objects).toBe(h.totalInstances);
      let shallow = 0;
      for (let v = 0; v < g.objects; v++) shallow += g.shallow[v]!;
      expect(shallow).toBe(h.totalBytes);
      const counts = new Map<string, number>();
      for (let v = 0; v < g.objects; v++) counts.set(g.classNames[g.classOf[v]!]!, (counts.get(g.classNames[g.classOf[v]!]!) ?? 0) + 1);
      for (const row of h.rows) expect(counts.get(row.className), row.className).toBe(row.instances);
      expect(g.missingReferences).toBe(0);
      // The same tree as an independent algorithm's.
      const t = dominatorTree(g);
      expect([...t.idom]).toEqual([...chkIdom(g)]);
      // With the graph's columns set aside on disk meanwhile: the same tree, and the columns back as they were.
      const before = columnsOf(g);
      const aside = new ColumnsAside<GraphColumn>(tmpdir());
      const lent = dominatorTree(g, aside);
      expect(lent.idom).toEqual(t.idom);
      expect(lent.retained).toEqual(t.retained);
      expect(columnsOf(g)).toEqual(before);
      // Left aside for the owner to take back (as the memory analysis does, to make the dominated lists
      // before they return): the ids, classes and references' starts are out of memory until then.
      const left = dominatorTree(g, aside, true);
      expect(left.idom).toEqual(t.idom);
      expect([g.ids.length, g.classOf.length, g.edgeStart.length]).toEqual([0, 0, 0]);
      // The references themselves stay (the semidominators' step holds no more with them than the analysis at its end).
      expect([g.shallow, g.edges]).toEqual([before.shallow, before.edges]);
      aside.takeBack(g);
      aside.close();
      expect(columnsOf(g)).toEqual(before);
      // A file that takes no write (a full disk; here, closed): the columns stay, and the tree is the same.
      const broken = new ColumnsAside<GraphColumn>(tmpdir());
      broken.close();
      expect(dominatorTree(g, broken).retained).toEqual(t.retained);
      expect(columnsOf(g)).toEqual(before);
      // Retained sizes add up: the root retains every reachable byte; nothing retains less than itself.
      expect(retainedOf(t, t.root) + t.unreachable.bytes).toBe(h.totalBytes);
      for (let v = 0; v < g.objects; v++) if (t.idom[v]! >= 0) expect(retainedOf(t, v)).toBeGreaterThanOrEqual(g.shallow[v]!);
      const s = memorySummary(g, t);
      expect(s.shallowBytes).toBe(h.totalBytes);
      // A class retains at least as much as its biggest instance, at most what is reachable.
      const biggest = new Map<string, number>();
      for (let v = 0; v < g.objects; v++) {
        const name = g.classNames[g.classOf[v]!]!;
        biggest.set(name, Math.max(biggest.get(name) ?? 0, retainedOf(t, v)));
      }
      for (const c of s.classes) {
        expect(c.retained, c.className).toBeGreaterThanOrEqual(biggest.get(c.className)!);
        expect(c.retained).toBeLessThanOrEqual(retainedOf(t, t.root));
      }
    });
  }
});

describe('what an accumulation point holds', () => {
  test('its biggest directly dominated objects, biggest first, up to 3, none under 5% of it', () => {
    // 0 (a root) holds 1 (the array); 1 holds 2..7, each retaining its own size.
    const sizes = [16, 16, 500, 40, 3000, 30, 1000, 20];
    const g = { ...graphOf(8, [[0, 1], ...[2, 3, 4, 5, 6, 7].map((w): [number, number] => [1, w])], [0], sizes), classNames: ['T', 'T[]'] };
    g.classOf[1] = 1; // the array is of a class of its own: the accumulation point goes down to it
    const s = memorySummary(g, dominatorTree(g), { suspectShare: 0.1 });
    const a = s.suspects[0]!.accumulation;
    expect(a.index).toBe(1);
    expect(a.dominated).toBe(6);
    expect(a.biggest!.map((o) => o.index)).toEqual([4, 6, 2]);
    // 50 bytes is under 5% of the 3,966 the array retains: left out.
    const few = {
      ...graphOf(
        5,
        [
          [0, 1],
          [1, 2],
          [1, 3],
          [1, 4],
        ],
        [0],
        [16, 16, 2000, 1900, 50],
      ),
      classNames: ['T', 'T[]'],
    };
    few.classOf[1] = 1;
    expect(memorySummary(few, dominatorTree(few)).suspects[0]!.accumulation.biggest!.map((o) => o.index)).toEqual([2, 3]);
  });
});

describe('class suspects reconcile with the class table', { timeout: 60_000 }, () => {
  test('on real heaps: the top-level instances, of all the class table counts, retaining no more than the class does', async () => {
    let classSuspects = 0;
    for (const file of ['fixtures/incidents/druid-starvation/heap.hprof.gz', 'fixtures/incidents/commons-pool2-starvation/heap.hprof.gz']) {
      const g = await hprofObjectGraph(file);
      const t = dominatorTree(g);
      const s = memorySummary(g, t, { topClasses: 100_000 });
      for (const x of s.suspects.filter((x) => x.kind === 'class')) {
        classSuspects++;
        const row = s.classes.find((c) => c.className === x.className)!;
        expect(x.classInstances, x.className).toBe(row.instances);
        expect(x.instances).toBeLessThanOrEqual(row.instances);
        expect(x.retained).toBeLessThanOrEqual(row.retained);
        expect(x.subject.className).toBe(x.className);
        expect(classSuspectText(x)).toBe(
          x.instances < row.instances
            ? `${countText(x.instances)} of the ${countText(row.instances)} instances of ${x.className}`
            : `${countText(x.instances)} instances of ${x.className}`,
        );
      }
    }
    expect(classSuspects).toBeGreaterThan(0);
  });
});
