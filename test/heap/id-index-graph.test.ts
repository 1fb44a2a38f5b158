/**
 * The object graph finds dump ids through a table over the heap's addresses or a hash table on small
 * heaps, and a sorted, bucketed index on big ones (see idIndex): all must give every id its object
 * and -1 for ids not in the dump.
 */
import { describe, expect, it } from 'vitest';

import { referentOf } from '../../src/heap/graph/object-graph.js';
import { addressTable, wordAddressTable } from '../../src/heap/hprof/graph/address-table.js';
import { idIndex } from '../../src/heap/hprof/graph/id-index.js';

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
  it('finds every object and nothing else: by address, hashed and sorted alike', () => {
    // Below 32 GB, and above it.
    for (const [seed, base] of [
      [1, 0x7f0000000],
      [2, 0x7f0000000],
      [3, 2 ** 40],
    ] as const) {
      const ids = heapIds(30_000, seed, base);
      // Two ids written twice (a damaged dump): the first object is found.
      ids[20_000] = ids[100]!;
      ids[20_001] = ids[29_999]!;
      const first = new Map<number, number>();
      ids.forEach((id, i) => first.has(id) || first.set(id, i));
      const byAddress = addressTable(ids);
      expect(byAddress, `seed ${seed}: compact ids get the address table`).toBeDefined();
      const hashed = idIndex(ids, 1, ids.length, false);
      const sorted = idIndex(ids, 1, 0, false);
      // Past the hash table's size: the address table when it fits the sorted index's memory, else the sorted index.
      const bigByAddress = idIndex(ids, 1, 0);
      // Below 32 GB, as a graph keeps them: id/8 in 32 bits, found by integer steps (also past 2^31 words).
      const words = base < 2 ** 35 ? Uint32Array.from(ids, (id) => id / 8) : undefined;
      const byWord = words !== undefined ? idIndex(words, 8) : undefined;
      if (byWord !== undefined) expect(byWord.getWord, 'the word table serves words').toBeDefined();
      for (const [id, i] of first) {
        if (byWord !== undefined) expect([byWord.get(id), byWord.getWord!(id / 8)], `seed ${seed} id ${id}`).toEqual([i, i]);
        expect(byAddress!.get(id), `seed ${seed} id ${id}`).toBe(i);
        expect(ids[bigByAddress.get(id)], `seed ${seed} id ${id}`).toBe(id);
        expect(hashed.get(id), `seed ${seed} id ${id}`).toBe(i);
        // The sorted index finds one of an id's objects (ids written twice are damaged dumps).
        expect(ids[sorted.get(id)], `seed ${seed} id ${id}`).toBe(id);
      }
      const near = [...first.keys()].flatMap((id) => [id + 8, id - 8, id + 4, id + 1]);
      for (const missing of [0, 8, ids[0]! + 4, ids[0]! + 2 ** 36, 2 ** 37, 2 ** 45, -8, 0.5, Number.NaN, ...near]) {
        if (first.has(missing)) continue;
        expect(byAddress!.get(missing), `seed ${seed} missing ${missing}`).toBe(-1);
        expect(bigByAddress.get(missing), `seed ${seed} missing ${missing}`).toBe(-1);
        if (byWord !== undefined) expect(byWord.get(missing), `seed ${seed} missing ${missing}`).toBe(-1);
        if (byWord !== undefined && Number.isInteger(missing / 8)) expect(byWord.getWord!(missing / 8), `seed ${seed} missing ${missing}`).toBe(-1);
        expect(hashed.get(missing)).toBe(-1);
        if (Number.isInteger(missing) && missing >= 0) expect(sorted.get(missing)).toBe(-1);
      }
    }
  });

  it('the address table keeps to compact heaps, and any id alignment', () => {
    // Ids aligned to 2, 4 and 1 (whole numbers that are no 8-byte addresses), densely, in reverse order.
    for (const unit of [2, 4, 1]) {
      const ids = Float64Array.from({ length: 5000 }, (_, i) => unit * (5000 - i) + 1000 * unit);
      const table = addressTable(ids)!;
      expect(table, `unit ${unit}`).toBeDefined();
      expect(
        [ids[0]!, ids[1]!, ids[4999]!, ids[4999]! - unit, ids[0]! + unit, ids[0]! + unit / 2].map((id) => table.get(id)),
        `unit ${unit}`,
      ).toEqual([0, 1, 4999, -1, -1, -1]);
    }
    // Dense (many objects a page) and sparse (about two a page), each with a run of empty pages in the
    // middle: every id is found, and nothing in the hole, between objects or past the last.
    for (const [label, step, hole] of [
      ['dense', 24, 40_000],
      ['sparse', 24 * 40, 4_000_000],
    ] as const) {
      const ids = Float64Array.from({ length: 20_000 }, (_, i) => 0x7f0000000 + i * step + (i >= 10_000 ? hole : 0));
      const table = addressTable(ids)!;
      expect(table, label).toBeDefined();
      for (let i = 0; i < ids.length; i += 7) expect(table.get(ids[i]!), `${label} ${i}`).toBe(i);
      // Within the sorted index's 12 bytes an object (what a heap past the hash table's size is allowed):
      // dense heaps only (a page's 64 bytes of words shared by two objects cost more).
      expect(addressTable(ids, 1, 12 * ids.length) !== undefined, label).toBe(label === 'dense');
      // The same over words (id/8): the same pages, so the same choice.
      const words = Uint32Array.from(ids, (id) => id / 8);
      const wordTable = wordAddressTable(words)!;
      for (let i = 0; i < ids.length; i += 7) expect(wordTable.getWord!(words[i]!), `${label} ${i}`).toBe(i);
      expect(wordAddressTable(words, 12 * ids.length) !== undefined, label).toBe(label === 'dense');
      for (const missing of [ids[9_999]! + step, ids[10_000]! - step, ids[9_999]! + hole / 2, ids[500]! + 8, ids[19_999]! + step]) {
        expect(table.get(missing), `${label} ${missing}`).toBe(-1);
        expect(wordTable.get(missing), `${label} ${missing}`).toBe(-1);
      }
    }
    // Not whole numbers: no table.
    expect(addressTable(Float64Array.from([8, 16.5, 24]))).toBeUndefined();
    // Objects scattered one per page over a wide span: the pages would cost more than a hash table.
    const scattered = Float64Array.from({ length: 5000 }, (_, i) => 0x7f0000000 + i * 2 ** 20);
    expect(addressTable(scattered)).toBeUndefined();
    // Two objects 2^40 apart: the directory would be huge.
    expect(addressTable(Float64Array.from([8, 2 ** 40]))).toBeUndefined();
    expect(addressTable(new Float64Array(0))).toBeUndefined();
    expect(wordAddressTable(new Uint32Array(0))).toBeUndefined();
    expect(wordAddressTable(Uint32Array.from(scattered, (id) => id / 8))).toBeUndefined();
    // What idIndex picks instead still finds them.
    const index = idIndex(scattered);
    expect(index.get(scattered[4321]!)).toBe(4321);
    expect(index.get(scattered[4321]! + 8)).toBe(-1);
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
