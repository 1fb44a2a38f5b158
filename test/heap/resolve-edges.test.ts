/**
 * The graph pass keeps the references it meets in chunks and resolves them into the CSR edges in one
 * forward pass (resolveEdges): an object's references may span chunks, objects may have none, some
 * get references added after their own (late instances, a thread's locals), ids not in the dump are
 * counted and left out, ids too wide for 32 bits turn the store to doubles mid-way, and each object's
 * reference to its class, kept by class key, comes first (or counts as missing). Checked
 * against the same edges resolved one by one with a Map.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';

import { RefStore } from '../../src/heap/hprof/graph/pass-columns.js';
import { MISSING_CLASS, NO_CLASS_EDGE, resolveEdges } from '../../src/heap/hprof/graph/resolve-edges.js';

describe('resolveEdges', () => {
  test('chunked references resolve as a Map resolves them one by one', () => {
    fc.assert(
      fc.property(
        fc.record({
          // Per object, its references as indexes into `ids` (-1: an id not in the dump).
          refs: fc.array(fc.array(fc.integer({ min: -1, max: 9 }), { maxLength: 6 }), { minLength: 1, maxLength: 12 }),
          chunk: fc.integer({ min: 1, max: 5 }),
          wideAt: fc.option(fc.nat(30)),
          extras: fc.array(fc.tuple(fc.nat(11), fc.array(fc.nat(9), { minLength: 1, maxLength: 3 })), { maxLength: 3 }),
          // Per object, its class key: 0 references no class, 1 the class that is object 3, 2 a class not in the dump.
          keys: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 12, maxLength: 12 }),
        }),
        ({ refs, chunk, wideAt, extras, keys }) => {
          const n = refs.length;
          // Ten objects' ids, 8-byte aligned; one past 2^35 when a wide id is asked for (no longer id/8 in 32 bits).
          const ids = Array.from({ length: 10 }, (_, i) => 0x7f0000000 + 24 * i);
          const store = new RefStore(chunk);
          const starts = new Int32Array(n + 1);
          let met = 0;
          const expected: number[][] = [];
          let missing = 0;
          const classOf = Int32Array.from(keys.slice(0, n));
          const classTargets = Int32Array.of(NO_CLASS_EDGE, 3, MISSING_CLASS);
          refs.forEach((list, i) => {
            starts[i] = store.length;
            // The reference to its class comes first, from its key.
            expected.push(classOf[i] === 1 ? [3] : []);
            if (classOf[i] === 2) missing++;
            for (const r of list) {
              const id = r < 0 ? 0x10 + 8 * met : wideAt !== null && met === wideAt ? 2 ** 36 + 8 : ids[r]!;
              met++;
              store.push(id);
              const index = ids.indexOf(id);
              if (index < 0) missing++;
              else expected[i]!.push(index);
            }
          });
          starts[n] = store.length;
          const localsOf = new Map<number, number[]>();
          for (const [owner, targets] of extras) {
            if (owner >= n) continue;
            localsOf.set(owner, [...(localsOf.get(owner) ?? []), ...targets]);
          }
          for (const [owner, targets] of localsOf) expected[owner]!.push(...targets);
          const index = { duplicates: 0, get: (id: number) => ids.indexOf(id) };
          const classEdges = { classOf, targets: classTargets, count: classOf.filter((k) => k !== 0).length };
          const out = resolveEdges(n, starts, store, index, new Map(), localsOf, classEdges);
          const got = Array.from({ length: n }, (_, i) => [...out.edges.subarray(out.edgeStart[i]!, out.edgeStart[i + 1]!)]);
          expect(got).toEqual(expected);
          expect(out.edgeStart[n]).toBe(out.edges.length);
          expect(out.missing).toBe(missing);
          return true;
        },
      ),
      { numRuns: 400 },
    );
  });
});
