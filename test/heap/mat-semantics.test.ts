/**
 * What counts as a reference, as Eclipse MAT counts it: a primitive array references its class (so
 * the class of `byte[]` is reachable through its arrays), and a thread's native-stack and thread-block
 * roots hang under the thread object, as its Java-frame and JNI-local roots do. The heap of a real
 * JVM for the first; a hand-written HPROF (a format edge case: no JVM here writes these roots on
 * demand) for the second.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { hprofObjectGraph } from '../../src/heap/hprof/graph/hprof-graph.js';
import { hprofHistogram } from '../../src/heap/hprof/hprof-histogram.js';
import { scratchDir } from '../helpers.js';
import { chainHeap, id8, record, u4 } from './hand-hprof.js';

const dir = scratchDir('mat-semantics');

describe('references as MAT counts them', () => {
  it('every primitive array of a real heap references its array class, and nothing else', async () => {
    const g = await hprofObjectGraph('fixtures/heap/jdk17/heap.hprof.gz');
    const classIndex = new Map<string, number>();
    g.classObjectNames.forEach((name, v) => classIndex.set(name, v));
    let arrays = 0;
    for (let v = 0; v < g.objects; v++) {
      const name = g.classNames[g.classOf[v]!]!;
      if (!/^(?:byte|char|int|long|short|boolean|float|double)\[\]$/.test(name)) continue;
      arrays++;
      const out = Array.from(g.edges.subarray(g.edgeStart[v]!, g.edgeStart[v + 1]!));
      expect(out, name).toEqual([classIndex.get(name)]);
    }
    expect(arrays).toBeGreaterThan(1000);
  });

  it("a native-stack root hangs under its thread's object, not beside it", async () => {
    // chainHeap's four nodes; its last node is also held by a native-stack root (0x04) of thread serial 7,
    // whose thread object (0x08 root) is the chain's first node.
    const heap = chainHeap([0x1000, 0x1010, 0x1020, 0x1030]);
    const end = heap.length - 9;
    const roots = Buffer.concat([Buffer.from([0x08]), id8(0x1000), u4(7), u4(0), Buffer.from([0x04]), id8(0x1030), u4(7)]);
    const file = join(dir, 'native-stack-root.hprof');
    writeFileSync(file, Buffer.concat([heap.subarray(0, end), record(0x1c, roots), heap.subarray(end)]));
    const g = await hprofObjectGraph(file);
    const last = Array.from(g.ids, (w) => w * g.idScale).indexOf(0x1030);
    const thread = Array.from(g.ids, (w) => w * g.idScale).indexOf(0x1000);
    expect(Array.from(g.roots)).not.toContain(last);
    expect(Array.from(g.edges.subarray(g.edgeStart[thread]!, g.edgeStart[thread + 1]!))).toContain(last);
  });
});

describe("Android's HPROF (JAVA PROFILE 1.0.3)", () => {
  // No Android device or emulator runs here, and the corpus has no Android dump: the records are
  // written by hand (a format edge case) around the known heap of hand-hprof.ts.
  it('its heap-info record is no root, its root kinds have names, and its no-data arrays are objects', async () => {
    const heap = chainHeap([0x1000, 0x1010, 0x1020, 0x1030]);
    const android = Buffer.from(heap);
    android.write('JAVA PROFILE 1.0.3', 0, 'latin1');
    const end = android.length - 9;
    const records = Buffer.concat([
      Buffer.from([0xfe]), // HEAP_DUMP_INFO: heap type 'A' (the app heap), its name's string id
      u4(0x41),
      id8(1),
      Buffer.from([0x89]), // ROOT_INTERNED_STRING
      id8(0x1020),
      Buffer.from([0xc3]), // PRIM_ARRAY_NODATA: 16 ints, their values not dumped
      id8(0x7000),
      u4(0),
      u4(16),
      Buffer.from([10]),
    ]);
    const file = join(dir, 'android.hprof');
    writeFileSync(file, Buffer.concat([android.subarray(0, end), record(0x1c, records), android.subarray(end)]));
    const g = await hprofObjectGraph(file);
    expect(g.rootKinds).toMatchObject({ 'interned-string': 1, 'jni-global': 1 });
    expect(Object.keys(g.rootKinds).filter((k) => k.startsWith('0x'))).toEqual([]);
    const array = Array.from(g.ids, (w) => w * g.idScale).indexOf(0x7000);
    expect(array).toBeGreaterThanOrEqual(0);
    expect(g.shallow[array]).toBe(16 + 16 * 4);
    const h = await hprofHistogram(file);
    expect(h.rows.find((r) => r.className === 'int[]')).toMatchObject({ instances: 1, shallowBytes: 80 });
    expect(h.warnings).toEqual([]);
  });
});
