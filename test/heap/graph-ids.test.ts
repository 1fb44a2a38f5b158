/**
 * The graph's id handling where no HotSpot heap of this machine goes: ids that are not 8-byte
 * aligned (references then kept as doubles) and ids past 2^38 (then a hash table finds them). The
 * HPROF here is written by hand (a format edge case): one class `Node { Node next; }`, a root and
 * a chain of three nodes, so the answers are known.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, test } from 'vitest';

import { dominatorTree, retainedOf } from '../../src/heap/graph/dominators.js';
import { hprofObjectGraph } from '../../src/heap/hprof/graph/hprof-graph.js';
import { scratchDir } from '../helpers.js';
import { chainHeap } from './hand-hprof.js';

const dir = scratchDir('graph-ids');

describe('object ids the index must still find', () => {
  for (const [what, ids, idScale] of [
    ['8-byte aligned, under 2^35', [0x1000, 0x1010, 0x1020, 0x1030], 8],
    ['not aligned', [0x1001, 0x1013, 0x1025, 0x1037], 1],
    ['past 2^38', [2 ** 40, 2 ** 40 + 16, 2 ** 40 + 32, 2 ** 40 + 48], 1],
    ['aligned under 2^35, then past it (the ids kept so far widened)', [0x1000, 0x1010, 2 ** 36, 2 ** 36 + 16], 1],
  ] as const) {
    test(what, async () => {
      const file = join(dir, `${what.replace(/\W+/g, '-')}.hprof`);
      writeFileSync(file, chainHeap([...ids]));
      const g = await hprofObjectGraph(file);
      expect(g.missingReferences).toBe(0);
      // 32 bits of id/8 an object while every id allows it.
      expect(g.idScale).toBe(idScale);
      expect(g.ids instanceof Uint32Array).toBe(idScale === 8);
      const nodes = [...ids].map((id) => Array.from(g.ids, (w) => w * g.idScale).indexOf(id));
      expect(nodes.every((i) => i >= 0)).toBe(true);
      const t = dominatorTree(g);
      // Each node dominates the rest of the chain (nodes of 16 bytes: 12 + 4); the root one also
      // its class, which no root holds here (a class object of 56 bytes: the dump has no java.lang.Class,
      // so a header and ten references stand for its fields).
      expect(nodes.map((i) => retainedOf(t, i))).toEqual([4 * 16 + 56, 48, 32, 16]);
      expect(t.idom[nodes[1]!]).toBe(nodes[0]);
    });
  }
});
