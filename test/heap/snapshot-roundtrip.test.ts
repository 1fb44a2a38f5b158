/**
 * The JSON heap snapshot round trip: an HPROF fixture loaded, written as `dumpsleuth.heap/1`
 * (plain and gzip), read back with the stream-json reader. The two heaps must answer alike.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import { heapHistogramOfFile } from '../../src/analysis/heap-file.js';
import { collectionElements, mapEntries } from '../../src/heap/collections.js';
import type { HeapStore } from '../../src/heap/heap-model.js';
import { HeapView } from '../../src/heap/heap-view.js';
import { loadHprof } from '../../src/heap/hprof/hprof-loader.js';
import { readHeapSnapshot } from '../../src/heap/json/snapshot-reader.js';
import { writeHeapSnapshotFile } from '../../src/heap/json/snapshot-writer.js';
import { openInput } from '../../src/input/open.js';
import { scratchDir } from '../helpers.js';

const PLAN = {
  roots: [
    { className: 'java.lang.Thread', depth: 2 },
    { className: 'java.util.concurrent.ThreadPoolExecutor', depth: 4 },
  ],
  statics: [
    { className: 'HeapObjects', depth: 8 },
    { className: 'HeapObjects$Prims', depth: 2 },
  ],
};
const dir = scratchDir('snapshot');

for (const jdk of ['jdk17', 'jdk25']) {
  for (const gzip of [false, true]) {
    describe(`${jdk} extract read back (${gzip ? 'gzip' : 'plain'})`, () => {
      let original: HeapStore;
      let copy: HeapStore;
      const out = join(dir, `${jdk}.json${gzip ? '.gz' : ''}`);
      beforeAll(async () => {
        original = await loadHprof(join('fixtures', 'heap', jdk, 'heap.hprof.gz'), PLAN);
        await writeHeapSnapshotFile(original, out, { createdBy: 'test', plan: PLAN }, gzip);
        copy = await readHeapSnapshot(out, await openInput(out));
      });

      it('holds the same classes and objects', () => {
        expect(copy.objects.size).toBe(original.objects.size);
        expect(copy.objects.size).toBeGreaterThan(500);
        expect(copy.classes).toEqual(original.classes);
        expect(copy.objects).toEqual(original.objects);
        expect(copy.completeClasses).toEqual(original.completeClasses);
        expect(copy.threads).toEqual(original.threads);
        expect(copy.source).toMatchObject({ format: 'dumpsleuth-heap', idSize: 8, hprofVersion: '1.0.2', gzip });
      });

      it('answers the same questions', () => {
        const a = new HeapView(original);
        const b = new HeapView(copy);
        for (const name of ['HASH_MAP', 'CHM', 'CHM_TREE', 'LINKED_MAP', 'SELF_MAP']) {
          const ea = mapEntries(a, a.object(a.staticValue('HeapObjects', name) ?? null)).items.map(([k]) => a.string(k) ?? JSON.stringify(k));
          const eb = mapEntries(b, b.object(b.staticValue('HeapObjects', name) ?? null)).items.map(([k]) => b.string(k) ?? JSON.stringify(k));
          expect(eb, name).toEqual(ea);
          expect(ea.length, name).toBeGreaterThan(0);
        }
        for (const name of ['LBQ', 'ABQ', 'ARRAY_DEQUE', 'ARRAY_LIST']) {
          const ea = collectionElements(a, a.object(a.staticValue('HeapObjects', name) ?? null)).items.map((v) => a.string(v));
          expect(
            collectionElements(b, b.object(b.staticValue('HeapObjects', name) ?? null)).items.map((v) => b.string(v)),
            name,
          ).toEqual(ea);
        }
        expect(b.instancesOf('java.lang.Thread').map((t) => b.string(b.field(t, 'name')))).toEqual(
          a.instancesOf('java.lang.Thread').map((t) => a.string(a.field(t, 'name'))),
        );
        expect(b.string(b.staticValue('HeapObjects', 'UTF16') ?? null)).toBe('héllo-世界-MARKER');
        expect(b.staticValue('HeapObjects$Prims', 'LONG')).toBe(1n << 40n);
      });

      it('carries the source histogram', async () => {
        const h = await heapHistogramOfFile(out);
        expect(h.rows).toEqual(original.histogram!.rows);
        expect(h.format).toBe('dumpsleuth-heap');
      });
    });
  }
}

describe('a damaged snapshot', () => {
  it('keeps the records before the damage and says so', async () => {
    const original = await loadHprof(join('fixtures', 'heap', 'jdk17', 'heap.hprof.gz'), PLAN);
    const whole = join(dir, 'whole.json');
    await writeHeapSnapshotFile(original, whole, { createdBy: 'test', plan: PLAN }, false);
    const text = readFileSync(whole, 'utf8');
    const cut = join(dir, 'cut.json');
    writeFileSync(cut, text.slice(0, Math.floor(text.length * 0.9)));
    const store = await readHeapSnapshot(cut, await openInput(cut));
    expect(store.objects.size).toBeGreaterThan(0);
    expect(store.objects.size).toBeLessThan(original.objects.size);
    expect(store.warnings.join('\n')).toMatch(/ends early or is damaged/);
  });

  it('refuses a JSON file of another format with what it is', async () => {
    const other = join(dir, 'other.json');
    writeFileSync(other, '{"format":"something-else","header":{}}');
    await expect(readHeapSnapshot(other, await openInput(other))).rejects.toThrow(/not a dumpsleuth heap snapshot/);
  });
});
