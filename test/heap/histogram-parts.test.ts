/**
 * The histogram read in parts at once (file-parts.ts, histogram-parts.ts) is the histogram read in
 * one pass: on real fixture heaps cut into 2 to 9 parts, and on the same heaps made into the files a
 * cut must not be made in (a name record between segments, a second heap dump, one HEAP_DUMP record)
 * or must end well (cut short, a damaged segment). Under the test runner the parts are read on this
 * thread; the last test reads them on worker threads through the build, when there is one.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';

import { describe, expect, test } from 'vitest';

import type { Histogram } from '../../src/heap/histogram.js';
import { hprofFileParts } from '../../src/heap/hprof/file-parts.js';
import { hprofGraphCounts, hprofHistogram } from '../../src/heap/hprof/hprof-histogram.js';
import { LayoutEvidence } from '../../src/heap/hprof/layout/layout-evidence.js';
import { scratchDir } from '../helpers.js';
import { record, u4 } from './hand-hprof.js';

const dir = scratchDir('parts');
const HEAPS = ['session-cache-leak', 'http-pool-starvation', 'finalizer-backlog'].map((name) => {
  const file = join(dir, `${name}.hprof`);
  writeFileSync(file, gunzipSync(readFileSync(`fixtures/incidents/${name}/heap.hprof.gz`)));
  return file;
});

/** The top-level records of an HPROF file: tag, start and end, after the header of `headerEnd` bytes. */
function records(bytes: Buffer): { headerEnd: number; list: Array<{ tag: number; start: number; end: number }> } {
  const headerEnd = bytes.indexOf(0) + 13;
  const list = [];
  for (let at = headerEnd; at + 9 <= bytes.length;) {
    const end = at + 9 + bytes.readUInt32BE(at + 5);
    list.push({ tag: bytes[at]!, start: at, end });
    at = end;
  }
  return { headerEnd, list };
}

function written(name: string, bytes: Buffer): string {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

/** What must not change with the parts: everything the histogram says. */
const said = (h: Histogram) => ({ rows: h.rows, totalInstances: h.totalInstances, totalBytes: h.totalBytes, sizeModel: h.sizeModel, warnings: h.warnings });

describe('a heap dump read in parts at once', { timeout: 120_000 }, () => {
  test('is cut at segment records into parts that cover the file, never before its first segment', () => {
    for (const file of HEAPS) {
      const bytes = readFileSync(file);
      const segments = records(bytes).list.filter((r) => r.tag === 0x1c);
      expect(segments.length).toBeGreaterThan(2);
      for (const count of [2, 3, 5]) {
        const cut = hprofFileParts(file, count)!;
        expect(cut.parts[0]!.start).toBe(0);
        expect(cut.parts[cut.parts.length - 1]!.end).toBe(bytes.length);
        cut.parts.forEach((p, i) => i > 0 && expect(p.start).toBe(cut.parts[i - 1]!.end));
        for (const p of cut.parts.slice(1)) expect(segments.slice(1).map((s) => s.start)).toContain(p.start);
        expect(cut.parts.length).toBeLessThanOrEqual(count);
      }
      expect(hprofFileParts(file, 1)).toBeUndefined();
    }
  });

  test('gives the histogram and the graph counts of one pass', async () => {
    for (const file of HEAPS) {
      const alone = await hprofHistogram(file, undefined, undefined, 1);
      const counts = await hprofGraphCounts(file, undefined, undefined, 1);
      for (const parts of [2, 4, 9]) {
        expect(said(await hprofHistogram(file, undefined, undefined, parts))).toEqual(said(alone));
        expect(await hprofGraphCounts(file, undefined, undefined, parts)).toEqual(counts);
      }
    }
  });

  test('cut short in its last segment: the same histogram and the same warning as one pass', async () => {
    const bytes = readFileSync(HEAPS[0]!);
    const last = records(bytes)
      .list.filter((r) => r.tag === 0x1c)
      .pop()!;
    const file = written('cut.hprof', bytes.subarray(0, last.start + Math.floor((last.end - last.start) / 2)));
    const alone = await hprofHistogram(file, undefined, undefined, 1);
    expect(alone.warnings.join(' ')).toMatch(/cut|truncat|ends/i);
    expect(hprofFileParts(file, 3)!.parts.length).toBeGreaterThan(1);
    expect(said(await hprofHistogram(file, undefined, undefined, 3))).toEqual(said(alone));
  });

  test('a damaged sub-record in a later part: the same warning, and the rest of its segment skipped as in one pass', async () => {
    const bytes = Buffer.from(readFileSync(HEAPS[0]!));
    const segments = records(bytes).list.filter((r) => r.tag === 0x1c);
    const damaged = segments[segments.length - 2]!;
    bytes[damaged.start + 9] = 0x7e; // no heap sub-record has this tag
    const file = written('damaged.hprof', bytes);
    const alone = await hprofHistogram(file, undefined, undefined, 1);
    expect(alone.warnings.join(' ')).toMatch(/unknown heap sub-record 0x7e/);
    expect(said(await hprofHistogram(file, undefined, undefined, 4))).toEqual(said(alone));
  });

  test('class dumps read in a later part are the classes of the whole (the segments written in another order)', async () => {
    // HotSpot writes its class dumps first; a dump whose first segment (the classes) comes last is
    // the same heap, and its objects' sizes then depend on class dumps read by another part.
    const bytes = readFileSync(HEAPS[1]!);
    const segments = records(bytes).list.filter((r) => r.tag === 0x1c);
    const slice = (r: { start: number; end: number }) => bytes.subarray(r.start, r.end);
    const file = written(
      'classes-last.hprof',
      Buffer.concat([bytes.subarray(0, segments[0]!.start), ...segments.slice(1).map(slice), slice(segments[0]!), bytes.subarray(segments.pop()!.end)]),
    );
    const alone = await hprofHistogram(file, undefined, undefined, 1);
    expect(alone.rows.find((r) => r.className === 'java.lang.Class')!.instances).toBeGreaterThan(400);
    expect(said(await hprofHistogram(file, undefined, undefined, 3))).toEqual(said(alone));
    expect(await hprofGraphCounts(file, undefined, undefined, 3)).toEqual(await hprofGraphCounts(file, undefined, undefined, 1));
  });

  describe('files it is not cut in, read in one pass as before', () => {
    const bytes = readFileSync(HEAPS[0]!);
    const { headerEnd, list } = records(bytes);
    const segments = list.filter((r) => r.tag === 0x1c);
    const before = bytes.subarray(0, segments[0]!.start);
    const body = (r: { start: number; end: number }) => bytes.subarray(r.start + 9, r.end);
    const cases: Array<[string, Buffer]> = [
      [
        'a name record between two segments (the old agent interleaves its records)',
        Buffer.concat([
          before,
          ...segments.slice(0, 2).map((s) => bytes.subarray(s.start, s.end)),
          record(0x01, Buffer.concat([u4(0), u4(0x7fff0001), Buffer.from('late')])),
          bytes.subarray(segments[2]!.start),
        ]),
      ],
      ['a second heap dump after the first', Buffer.concat([bytes, bytes.subarray(segments[0]!.start)])],
      ['one HEAP_DUMP record', Buffer.concat([before, record(0x0c, Buffer.concat(segments.map(body)))])],
    ];
    expect(headerEnd).toBeLessThan(segments[0]!.start);
    for (const [what, file] of cases.map(([w, b], i) => [w, written(`whole-${i}.hprof`, b)] as const)) {
      test(what, async () => {
        expect(hprofFileParts(file, 4)).toBeUndefined();
        expect(said(await hprofHistogram(file, undefined, undefined, 4))).toEqual(said(await hprofHistogram(file, undefined, undefined, 1)));
      });
    }
  });
});

describe('layout evidence gathered in parts and appended', () => {
  test('is the evidence of one pass, the distance across each cut included', () => {
    // Objects laid out as HotSpot writes them: ids in address order, each the previous one's size on.
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const objects: Array<{ kind: number; id: number; length: number }> = [];
    for (let i = 0, id = 0x7_0000_0000; i < 5000; i++) {
      const kind = Math.floor(random() * 3);
      const length = Math.floor(random() * 40);
      objects.push({ kind, id, length });
      id += kind === 0 ? 24 : 16 + (kind === 1 ? length : length * 4) + 8;
      id -= id % 8;
    }
    const feed = (e: LayoutEvidence, o: (typeof objects)[number]) =>
      o.kind === 0 ? e.other(o.id) : o.kind === 1 ? e.primitiveArray(o.id, 1, o.length) : e.objectArray(o.id, o.length);
    const whole = new LayoutEvidence();
    for (const o of objects) feed(whole, o);
    expect(whole.byteArraysMeasured).toBeGreaterThan(1000);
    for (const cuts of [[1], [2500], [1, 2, 3, 4999], [700, 1400, 4000]]) {
      const starts = [0, ...cuts];
      const parts = starts.map((s, i) => {
        const e = new LayoutEvidence();
        for (const o of objects.slice(s, starts[i + 1] ?? objects.length)) feed(e, o);
        return e;
      });
      for (const p of parts.slice(1)) parts[0]!.append(p.state());
      expect(parts[0]!.state()).toEqual(whole.state());
    }
  });
});

const built = join(process.cwd(), 'dist/heap/hprof/hprof-histogram.js');
describe.skipIf(!existsSync(built))('read on worker threads, through the build', { timeout: 120_000 }, () => {
  test('the same histogram as one pass', async () => {
    const { hprofHistogram: builtHistogram } = (await import(pathToFileURL(built).href)) as { hprofHistogram: typeof hprofHistogram };
    for (const file of HEAPS) {
      expect(said(await builtHistogram(file, undefined, undefined, 4))).toEqual(said(await hprofHistogram(file, undefined, undefined, 1)));
    }
  });
});
if (!existsSync(built)) console.log(`histogram-parts: worker threads not tried (no build at ${built}; npm run build)`);
