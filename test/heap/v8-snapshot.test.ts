/**
 * V8 .heapsnapshot → histogram. The fixture is a real Node snapshot with known instance counts
 * (fixtures/heap-v8/make-snapshot.mjs); the corpus file is checked against an independent
 * JSON.parse-based count written here; hand-made snapshots pin the edge cases.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

import { afterAll, describe, expect, it } from 'vitest';

import type { Histogram, HistogramRow } from '../../src/heap/histogram.js';
import { readV8HeapSnapshotHistogram } from '../../src/heap/v8/v8-snapshot.js';
import { V8SnapshotScanner, type V8SnapshotSummary } from '../../src/heap/v8/v8-snapshot-scanner.js';
import { formatOf } from '../../src/input/identify.js';
import { scratchDir } from '../helpers.js';

const FIXTURE_GZ = 'fixtures/heap-v8/markers.heapsnapshot.gz';
const CORPUS_SMALL = join('..', 'shared', 'corpus', 'heap', 'stefanpenner__heapsnapshot', 'small.heapsnapshot');
const corpusAvailable = existsSync(join('..', 'shared', 'corpus'));

const scratch = scratchDir('v8');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let scratchFiles = 0;
function writeScratch(content: Uint8Array | string, suffix = '.heapsnapshot'): string {
  const path = join(scratch, `f${scratchFiles++}${suffix}`);
  writeFileSync(path, content);
  return path;
}

const fixturePlain = gunzipSync(readFileSync(FIXTURE_GZ));

function row(h: Histogram, className: string): HistogramRow | undefined {
  return h.rows.find((r) => r.className === className);
}

function expectConsistent(h: Histogram): void {
  expect(h.format).toBe('v8-heapsnapshot');
  expect(h.totalInstances).toBe(h.rows.reduce((sum, r) => sum + r.instances, 0));
  expect(h.totalBytes).toBe(h.rows.reduce((sum, r) => sum + r.shallowBytes, 0));
  expect(new Set(h.rows.map((r) => r.className)).size).toBe(h.rows.length);
  for (let i = 1; i < h.rows.length; i++) expect(h.rows[i - 1]!.shallowBytes).toBeGreaterThanOrEqual(h.rows[i]!.shallowBytes);
}

/** Feeds `bytes` to a scanner in pieces of `size`, the way a stream with odd chunk boundaries would. */
function scanInChunks(bytes: Uint8Array, size: number): V8SnapshotSummary {
  const scanner = new V8SnapshotScanner({ source: 'chunks' });
  for (let at = 0; at < bytes.length; at += size) {
    if (!scanner.feed(bytes.subarray(at, Math.min(bytes.length, at + size)))) break;
  }
  return scanner.finish();
}

function sortedGroups(s: V8SnapshotSummary): string[] {
  return s.groups.map((g) => `${g.typeIndex}/${g.nameIndex}/${g.name}/${g.instances}/${g.selfBytes}`).sort();
}

/** Builds a snapshot text the way V8 lays it out: one node per line, strings last. */
function snapshotText(opts: { fields: string[]; types: string[]; nodes: number[][]; strings: string[]; nodeCount?: number; extra?: string }): string {
  const header = {
    meta: { node_fields: opts.fields, node_types: opts.fields.map((f) => (f === 'type' ? opts.types : 'number')) },
    node_count: opts.nodeCount ?? opts.nodes.length,
    edge_count: 0,
  };
  return (
    `{"snapshot":${JSON.stringify(header)},\n"nodes":[${opts.nodes.map((n) => n.join(',')).join('\n,')}],\n"edges":[1,2,3\n,4,5,6],\n` +
    (opts.extra ?? '') +
    `"strings":[${opts.strings.map((s) => JSON.stringify(s)).join(',\n')}]}`
  );
}

describe('V8 heap snapshot fixture written by Node (markers.heapsnapshot.gz)', () => {
  it('counts the instances the generator created', async () => {
    const h = await readV8HeapSnapshotHistogram(FIXTURE_GZ);
    expect(row(h, 'DumpsleuthMarker')?.instances).toBe(1234);
    expect(row(h, 'OtherMarker')?.instances).toBe(77);
    expect(row(h, 'Märker')?.instances).toBe(5);
    expect(row(h, 'DumpsleuthMarker')!.shallowBytes).toBeGreaterThan(0);
    expect(row(h, '(string)')!.instances).toBeGreaterThan(77);
    expect(row(h, '(closure)')!.instances).toBeGreaterThan(0);
    expect(h.warnings).toEqual([]);
    expect(h.source).toBe(FIXTURE_GZ);
    expect(h.sizeModel).toMatch(/self_size/);
    expectConsistent(h);
    const nodeCount = (
      JSON.parse(fixturePlain.subarray(0, fixturePlain.indexOf('\n')).toString().replace(/,$/, '}')) as {
        snapshot: { node_count: number };
      }
    ).snapshot.node_count;
    expect(h.totalInstances).toBe(nodeCount);
  });

  it('reads the same file uncompressed, with progress up to the file size', async () => {
    const plainPath = writeScratch(fixturePlain);
    const progress: Array<[number, number | undefined]> = [];
    const plain = await readV8HeapSnapshotHistogram(plainPath, { onProgress: (read, total) => progress.push([read, total]) });
    const gz = await readV8HeapSnapshotHistogram(FIXTURE_GZ);
    expect(plain.rows).toEqual(gz.rows);
    expect(plain.warnings).toEqual([]);
    expect(progress.at(-1)).toEqual([fixturePlain.length, fixturePlain.length]);
  });

  it('reports gzip progress in compressed bytes', async () => {
    const size = readFileSync(FIXTURE_GZ).length;
    let last: [number, number | undefined] = [0, 0];
    await readV8HeapSnapshotHistogram(FIXTURE_GZ, { onProgress: (read, total) => (last = [read, total]) });
    expect(last).toEqual([size, size]);
  });

  it('gives the same groups whatever the chunk boundaries', () => {
    const whole = sortedGroups(scanInChunks(fixturePlain, fixturePlain.length));
    for (const size of [7, 61, 4099, 65536]) expect(sortedGroups(scanInChunks(fixturePlain, size))).toEqual(whole);
  }, 60_000);
});

describe.skipIf(!corpusAvailable)(`corpus cross-check (SKIPPED when ${join('..', 'shared', 'corpus')} does not exist)`, () => {
  it('matches an independent JSON.parse count of stefanpenner__heapsnapshot/small.heapsnapshot, row by row', async () => {
    const snap = JSON.parse(readFileSync(CORPUS_SMALL, 'utf8')) as {
      snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
      nodes: number[];
      strings: string[];
    };
    const fields = snap.snapshot.meta.node_fields;
    const types = snap.snapshot.meta.node_types[0];
    const stride = fields.length;
    const [typeAt, nameAt, sizeAt] = [fields.indexOf('type'), fields.indexOf('name'), fields.indexOf('self_size')];
    const expected = new Map<string, { instances: number; shallowBytes: number }>();
    for (let i = 0; i < snap.nodes.length; i += stride) {
      const type = types[snap.nodes[i + typeAt]!];
      const name = snap.strings[snap.nodes[i + nameAt]!]!;
      const group = type === undefined ? '(unknown node type)' : type === 'object' || type === 'native' ? name || `(anonymous ${type})` : `(${type})`;
      const acc = expected.get(group) ?? { instances: 0, shallowBytes: 0 };
      acc.instances++;
      acc.shallowBytes += snap.nodes[i + sizeAt]!;
      expected.set(group, acc);
    }

    const h = await readV8HeapSnapshotHistogram(CORPUS_SMALL);
    // The V8 that wrote this file used type 12 (later named "symbol") without listing it in meta.node_types.
    expect(h.warnings).toEqual(['13 nodes have a type index outside `meta.node_types`, which names 12 types (seen: 12); they are counted as one unknown type']);
    expectConsistent(h);
    expect(Object.fromEntries(h.rows.map((r) => [r.className, { instances: r.instances, shallowBytes: r.shallowBytes }]))).toEqual(
      Object.fromEntries(expected),
    );
    expect(h.totalInstances).toBe(snap.nodes.length / stride);
  });
});

describe('truncated input', () => {
  const full = fixturePlain;
  const nodesAt = full.indexOf('"nodes":[');
  const edgesAt = full.indexOf('"edges":[');
  const stringsAt = full.indexOf('"strings":[');
  const firstNodeEnd = full.indexOf('\n', nodesAt);
  const cuts = [
    0,
    1,
    2,
    40,
    nodesAt - 2,
    nodesAt,
    nodesAt + 9,
    nodesAt + 10,
    nodesAt + 1000,
    Math.floor((nodesAt + edgesAt) / 2),
    edgesAt - 1,
    edgesAt,
    edgesAt + 12345,
    stringsAt - 3,
    stringsAt,
    stringsAt + 11,
    stringsAt + 5000,
    Math.floor((stringsAt + full.length) / 2),
    full.length - 2,
    full.length - 1,
  ];

  it.each(cuts)(
    'a copy cut at byte %i gives counts with a warning naming the offset, or a one-line error',
    async (cut) => {
      const path = writeScratch(full.subarray(0, cut));
      let h: Histogram;
      try {
        h = await readV8HeapSnapshotHistogram(path);
      } catch (e) {
        expect(e).toBeInstanceOf(Error);
        const message = (e as Error).message;
        expect(message).not.toContain('\n');
        expect(message).toMatch(cut === 0 ? /empty/ : new RegExp(`byte ${cut}\\b`));
        // Errors only while not even one node is complete; after that there is something to show.
        expect(cut).toBeLessThanOrEqual(firstNodeEnd);
        return;
      }
      expect(h.warnings.some((w) => w.includes(`byte ${cut},`))).toBe(true);
      expectConsistent(h);
    },
    20_000,
  );

  it('a cut gzip file gives counts with a warning in decompressed bytes', async () => {
    const gz = readFileSync(FIXTURE_GZ);
    const complete = await readV8HeapSnapshotHistogram(FIXTURE_GZ);
    const early = await readV8HeapSnapshotHistogram(writeScratch(gz.subarray(0, Math.floor(gz.length / 3)), '.gz'));
    expect(early.warnings.join(' ')).toMatch(
      /^the gzip data ends early at decompressed byte \d+, (before|inside) the `strings` table: \d+ constructor names are missing/,
    );
    expectConsistent(early);
    expect(early.totalInstances).toBeGreaterThan(0);
    expect(early.totalInstances).toBeLessThanOrEqual(complete.totalInstances);
    // Only the trailer (CRC, length) is missing: every count is there, and the damage is still reported.
    const trailerCut = await readV8HeapSnapshotHistogram(writeScratch(gz.subarray(0, gz.length - 5), '.gz'));
    expect(trailerCut.rows).toEqual(complete.rows);
    expect(trailerCut.warnings).toEqual([expect.stringMatching(/^the gzip data ends early after the snapshot's closing brace/)]);
  }, 20_000);

  it('a gzip file cut inside its header is an error, not a hang', async () => {
    const gz = readFileSync(FIXTURE_GZ);
    await expect(readV8HeapSnapshotHistogram(writeScratch(gz.subarray(0, 30), '.gz'))).rejects.toThrow(/before the end of the `snapshot` header/);
  }, 20_000);

  it('counts the nodes before a cut and shows their names by string index', async () => {
    const text = snapshotText({
      fields: ['type', 'name', 'id', 'self_size', 'edge_count'],
      types: ['hidden', 'object', 'string'],
      nodes: [
        [1, 1, 1, 10, 0],
        [1, 1, 3, 20, 0],
        [2, 2, 5, 30, 0],
        [1, 3, 7, 40, 0],
      ],
      strings: ['', 'Foo', 'text', 'Bar'],
    });
    const cut = text.indexOf('1,3,7,40');
    const h = await readV8HeapSnapshotHistogram(writeScratch(text.slice(0, cut + 5)));
    expect(h.rows).toEqual([
      { className: '(object, name #1 not read)', instances: 2, shallowBytes: 30 },
      { className: '(string)', instances: 1, shallowBytes: 30 },
    ]);
    expect(h.warnings[0]).toMatch(new RegExp(`^the file ends at byte ${cut + 5}, inside \`nodes\`: only the first 3 of 4 nodes`));
  });
});

describe('hand-made snapshots', () => {
  it('reads the fields where meta.node_fields puts them, with older 5-field layouts', async () => {
    const text = snapshotText({
      fields: ['name', 'self_size', 'id', 'type', 'edge_count'],
      types: ['hidden', 'object', 'string', 'native', 'closure'],
      nodes: [
        [0, 0, 1, 0, 0],
        [1, 100, 3, 1, 0],
        [1, 50, 5, 1, 0],
        [2, 7, 7, 2, 0],
        [3, 9, 9, 2, 0],
        [1, 5, 11, 4, 0],
        [4, 3, 13, 3, 0],
        [5, 1, 15, 1, 0],
        [6, 2, 17, 99, 0],
      ],
      strings: ['', 'Foo', 'some text', 'more text', 'HTMLDivElement', 'Quote"Back\\slash\u00e9', 'x'],
    });
    const h = await readV8HeapSnapshotHistogram(writeScratch(text));
    expect(h.rows).toEqual([
      { className: 'Foo', instances: 2, shallowBytes: 150 },
      { className: '(string)', instances: 2, shallowBytes: 16 },
      { className: '(closure)', instances: 1, shallowBytes: 5 },
      { className: 'HTMLDivElement', instances: 1, shallowBytes: 3 },
      { className: '(unknown node type)', instances: 1, shallowBytes: 2 },
      { className: 'Quote"Back\\slashé', instances: 1, shallowBytes: 1 },
      { className: '(hidden)', instances: 1, shallowBytes: 0 },
    ]);
    expect(h.warnings).toEqual(['1 nodes have a type index outside `meta.node_types`, which names 5 types (seen: 99); they are counted as one unknown type']);
    const bytes = Buffer.from(text);
    expect(sortedGroups(scanInChunks(bytes, 1))).toEqual(sortedGroups(scanInChunks(bytes, bytes.length)));
  });

  it('skips unknown top-level keys whatever they hold', async () => {
    const text = snapshotText({
      fields: ['type', 'name', 'self_size'],
      types: ['object'],
      nodes: [[0, 1, 8]],
      strings: ['', 'Foo'],
      extra: '"trace_tree":[1,2,[3,[4]],"]\\"[{"],\n"future":{"a":[{"b":"}"}],"c":true},\n"flag":false,\n"n":-1.5e3,\n',
    });
    const h = await readV8HeapSnapshotHistogram(writeScratch(text));
    expect(h.rows).toEqual([{ className: 'Foo', instances: 1, shallowBytes: 8 }]);
    expect(h.warnings).toEqual([]);
  });

  it('warns when the header node_count disagrees with the nodes array', async () => {
    const text = snapshotText({ fields: ['type', 'name', 'self_size'], types: ['object'], nodes: [[0, 1, 8]], strings: ['', 'Foo'], nodeCount: 2 });
    const h = await readV8HeapSnapshotHistogram(writeScratch(text));
    expect(h.warnings).toEqual(['the header declares 2 nodes but the `nodes` array holds 1']);
  });

  it.each([
    ['a letter', 'x'],
    ['a minus sign', '-'],
    ['a decimal point', '.'],
    ['two commas', ','],
  ])(
    'rejects %s inside the nodes array, naming the byte offset',
    async (_what, junk) => {
      const good = Buffer.from(fixturePlain);
      const at = good.indexOf('\n,', good.indexOf('"nodes":[') + 5000) + 2;
      good[at] = junk.charCodeAt(0);
      const message = await readV8HeapSnapshotHistogram(writeScratch(good)).then(
        () => 'no error',
        (e: Error) => e.message,
      );
      expect(message).toMatch(new RegExp(`unexpected '\\${junk}' inside \`nodes\` .* at byte ${at}$`));
      expect(message).not.toContain('\n');
    },
    20_000,
  );

  it.each([
    ['an empty file', '', /the file is empty/],
    ['a JSON array', '[1,2,3]', /does not start with '\{'/],
    ['binary data', '\u0000\u0001JAVA PROFILE', /does not start with '\{'/],
    ['a header that is not JSON', '{"snapshot":{"meta":{"node_fields":[1 2]}},"nodes":[]}', /header is not valid JSON/],
    ['a header without node types', '{"snapshot":{"meta":{"node_fields":["type","name","self_size"]}},"nodes":[]}', /no list of node type names/],
    ['nodes before the header', '{"nodes":[0,1,2],"snapshot":{}}', /`nodes` comes before the `snapshot` header/],
    ['JSON without a header', '{"a":1}', /no `snapshot` header/],
    ['a header but no nodes', '{"snapshot":{"meta":{"node_fields":["type","name","self_size"],"node_types":[["object"]]}}}', /no `nodes` array/],
  ])('rejects %s with a one-line error', async (_what, text, pattern) => {
    const error = await readV8HeapSnapshotHistogram(writeScratch(text)).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error!.message).toMatch(pattern);
    expect(error!.message).not.toContain('\n');
  });

  it('reports a missing file as a readable error', async () => {
    await expect(readV8HeapSnapshotHistogram(join(scratch, 'nope.heapsnapshot'))).rejects.toThrow(/no such file/);
  });
});

describe('a snapshot whose header keys come in another order (AliNode writes title and uid first)', () => {
  it('is still a V8 snapshot to every command, read to the same histogram', async () => {
    const text = gunzipSync(readFileSync(FIXTURE_GZ)).toString('utf8');
    expect(text.startsWith('{"snapshot":{"meta":')).toBe(true);
    const reordered = text.replace('{"snapshot":{"meta":', '{"snapshot":{"title":"aliNode heap snapshot","uid":1,"meta":');
    const path = writeScratch(reordered);
    const head = Buffer.from(reordered.slice(0, 64 * 1024));
    expect(formatOf(head, head.toString('utf8')).format?.kind).toBe('v8-heapsnapshot');
    const ours = await readV8HeapSnapshotHistogram(path);
    const original = await readV8HeapSnapshotHistogram(writeScratch(text));
    expect(ours.rows).toEqual(original.rows);
  });
});
