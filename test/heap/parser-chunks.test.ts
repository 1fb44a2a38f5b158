/**
 * The HPROF parser over a dump cut into small pushes, as a gzip stream delivers it: every header
 * callback is asked once per record, even when the body it asked for only arrives on a later push
 * (a visitor that counts or indexes in its header callbacks once counted such records twice), and
 * every visitor sees what it sees when the dump comes in one piece.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

import { describe, expect, test } from 'vitest';

import { ANALYSIS_PLAN } from '../../src/heap/analysis-plan.js';
import { hprofHistogram } from '../../src/heap/hprof/hprof-histogram.js';
import { loadHprof } from '../../src/heap/hprof/hprof-loader.js';
import { HprofParser, type HprofVisitor } from '../../src/heap/hprof/parser.js';

const DUMP = gunzipSync(readFileSync('fixtures/incidents/session-cache-leak/heap.hprof.gz'));

/** What a visitor that asks for every body is told: header calls per kind and the bodies delivered. */
function tally(chunk: number): Record<string, number> {
  const seen: Record<string, number> = {
    instanceHeader: 0,
    instanceData: 0,
    objectArrayHeader: 0,
    objectArrayData: 0,
    primitiveArrayHeader: 0,
    primitiveArrayData: 0,
    bodyBytes: 0,
  };
  const visitor: HprofVisitor = {
    instanceHeader: () => (seen['instanceHeader']!++, true),
    instanceData: (_id, _c, data) => {
      seen['instanceData']!++;
      seen['bodyBytes']! += data.length;
    },
    objectArrayHeader: () => (seen['objectArrayHeader']!++, true),
    objectArrayData: (_id, _c, elements) => {
      seen['objectArrayData']!++;
      seen['bodyBytes']! += elements.length;
    },
    primitiveArrayHeader: () => (seen['primitiveArrayHeader']!++, true),
    primitiveArrayData: (_id, _t, data) => {
      seen['primitiveArrayData']!++;
      seen['bodyBytes']! += data.length;
    },
  };
  pushInChunks(new HprofParser(visitor), chunk);
  return seen;
}

/**
 * Feeds the dump in pushes of `chunk` bytes, as the feed's contract says: what the parser did not
 * consume is given again with more bytes after it, and a push may consume past its end (a body
 * skipped unread), which the next bytes then skip.
 */
function pushInChunks(parser: HprofParser, chunk: number): void {
  let pending = Buffer.alloc(0);
  let at = 0;
  while (at < DUMP.length && !parser.ended) {
    const buf = Buffer.concat([pending, DUMP.subarray(at, at + chunk)]);
    at += chunk;
    const used = parser.push(buf, 0, buf.length);
    if (used > buf.length) {
      at += used - buf.length;
      pending = Buffer.alloc(0);
    } else pending = buf.subarray(used);
  }
}

/**
 * What a visitor of headers only is told (the histogram's: its object records are read in runs, see
 * HprofParser.headerRun): the calls per kind and a checksum of every id, class, type and length.
 */
function headers(chunk: number): Record<string, number> {
  const seen: Record<string, number> = { instanceHeader: 0, objectArrayHeader: 0, primitiveArrayHeader: 0, sum: 0 };
  const add = (kind: string, ...values: number[]) => {
    seen[kind]!++;
    for (const v of values) seen['sum'] = (seen['sum']! * 31 + v) % 1_000_000_007;
    return false;
  };
  const parser = new HprofParser({
    instanceHeader: (id, classId, n) => add('instanceHeader', id, classId, n),
    objectArrayHeader: (id, classId, n) => add('objectArrayHeader', id, classId, n),
    primitiveArrayHeader: (id, type, n) => add('primitiveArrayHeader', id, type, n),
  });
  pushInChunks(parser, chunk);
  return seen;
}

describe('the HPROF parser over small pushes', () => {
  const whole = tally(DUMP.length);
  test('the dump in one push: headers asked once, bodies delivered for each', () => {
    expect(whole['instanceHeader']).toBeGreaterThan(100_000);
    expect(whole['instanceData']).toBe(whole['instanceHeader']);
    expect(whole['primitiveArrayData']).toBe(whole['primitiveArrayHeader']);
  });
  for (const chunk of [4093, 65_521]) {
    test(`in pushes of ${chunk} bytes: every header asked once, and the same bodies`, () => {
      expect(tally(chunk)).toEqual(whole);
    });
  }
  test('a visitor of headers only is told every header once, in order, in pushes of any size', () => {
    const told = headers(DUMP.length);
    expect(told['instanceHeader']).toBe(whole['instanceHeader']);
    expect(told['objectArrayHeader']).toBe(whole['objectArrayHeader']);
    expect(told['primitiveArrayHeader']).toBe(whole['primitiveArrayHeader']);
    for (const chunk of [25, 4093, 65_521]) expect(headers(chunk)).toEqual(told);
  });
});

describe("the heap loader's histogram", { timeout: 120_000 }, () => {
  // The loader asks for some bodies in its header callbacks (the objects it loads) and counts every
  // object there; over a gzip stream such a record at a chunk's end was counted twice.
  const heaps = readdirSync('fixtures/incidents')
    .map((d) => join('fixtures/incidents', d, 'heap.hprof.gz'))
    .filter((f) => existsSync(f));
  test(`is the histogram command's on all ${heaps.length} fixture incident heaps`, async () => {
    expect(heaps.length).toBeGreaterThan(10);
    for (const heap of heaps) {
      const loaded = (await loadHprof(heap, ANALYSIS_PLAN)).histogram!;
      const alone = await hprofHistogram(heap);
      expect([heap, loaded.totalInstances, loaded.totalBytes]).toEqual([heap, alone.totalInstances, alone.totalBytes]);
    }
  });
});
