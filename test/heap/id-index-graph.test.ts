/**
 * The object graph finds dump ids through a hash table on small heaps and a sorted, bucketed index on
 * big ones (see idIndex): both must give every id its object and -1 for ids not in the dump.
 */
import { describe, expect, it } from 'vitest';
import { idIndex } from '../../src/heap/graph/hprof-graph.js';
import { referentOf } from '../../src/heap/graph/object-graph.js';

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296;
}

/** Ids as HotSpot writes them: class objects first, then instances in a few ascending runs, 8-byte aligned. */
function heapIds(n: number, seed: number, base = 0x7f0000000): Float64Array {
  const next = random(seed);
  const ids = new Float64Array(n);
  let at = base;
  for (let i = 0; i < n; i++) {
    if (i % 5000 === 0) at = base + Math.floor(next() * 2 ** 24) * 8; // a new run somewhere else
    at += 8 * (2 + Math.floor(next() * 6));
    ids[i] = at;
  }
  return ids;
}

describe('idIndex', () => {
  it('finds every object and nothing else, hashed and sorted alike', () => {
    // Below 32 GB, and above it.
    for (const [seed, base] of [[1, 0x7f0000000], [2, 0x7f0000000], [3, 2 ** 40]] as const) {
      const ids = heapIds(30_000, seed, base);
      const first = new Map<number, number>();
      ids.forEach((id, i) => first.has(id) || first.set(id, i));
      const hashed = idIndex(ids);
      const sorted = idIndex(ids, 0);
      for (const [id, i] of first) {
        expect(hashed.get(id), `seed ${seed} id ${id}`).toBe(i);
        // The sorted index finds one of an id's objects (ids written twice are damaged dumps).
        expect(ids[sorted.get(id)], `seed ${seed} id ${id}`).toBe(id);
      }
      for (const missing of [0, 8, ids[0]! + 4, ids[0]! + 2 ** 36, 2 ** 37, 2 ** 45]) {
        if (first.has(missing)) continue;
        expect(hashed.get(missing)).toBe(-1);
        expect(sorted.get(missing)).toBe(-1);
      }
    }
  });
});

describe('referentOf', () => {
  it('finds the referent of each reference object, and -1 for other objects', () => {
    const r = { references: Int32Array.from([3, 8, 9, 40]), referents: Int32Array.from([100, 7, 0, 41]) };
    expect([3, 8, 9, 40].map((v) => referentOf(r, v))).toEqual([100, 7, 0, 41]);
    expect([0, 4, 10, 41, -1].map((v) => referentOf(r, v))).toEqual([-1, -1, -1, -1, -1]);
    expect(referentOf({ references: new Int32Array(0), referents: new Int32Array(0) }, 0)).toBe(-1);
  });
});
