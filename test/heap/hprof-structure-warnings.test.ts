/**
 * Structural oddities of an HPROF that change a count are warnings, never silent: several heap dumps
 * in one file (the old hprof agent appends one per request; only the first is read), a field type
 * code HPROF does not have, object ids written twice, instances of a class never dumped, a name record
 * whose length was damaged (and a file of several dumps gets no index of where its objects lie). No
 * JVM of this machine writes these (the hprof agent left the JDK in 9), so the files are written by
 * hand (format edge cases) around the known heap of hand-hprof.ts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it, test } from 'vitest';

import { hprofObjectGraph, hprofObjectGraphIndexed } from '../../src/heap/hprof/graph/hprof-graph.js';
import { hprofHistogram } from '../../src/heap/hprof/hprof-histogram.js';
import { loadHprof } from '../../src/heap/hprof/hprof-loader.js';
import { runBuiltCli, scratchDir } from '../helpers.js';
import { chainHeap, id8, record, u4 } from './hand-hprof.js';

const dir = scratchDir('hprof-structure');
const IDS = [0x1000, 0x1010, 0x1020, 0x1030];
/** The 19-byte version string, the id size and the time: what precedes the first record. */
const FILE_HEADER_BYTES = 19 + 4 + 8;

function write(name: string, bytes: Buffer): string {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

/** chainHeap's records, split at its heap-dump segment (the records before it, the segment, HEAP_DUMP_END). */
function chainParts(ids = IDS): { before: Buffer; segment: Buffer; end: Buffer } {
  const whole = chainHeap(ids);
  const end = record(0x2c, Buffer.alloc(0));
  let p = FILE_HEADER_BYTES;
  while (whole[p] !== 0x1c) p += 9 + whole.readUInt32BE(p + 5);
  const segmentEnd = p + 9 + whole.readUInt32BE(p + 5);
  return { before: whole.subarray(0, p), segment: whole.subarray(p, segmentEnd), end };
}

const nodeCount = async (file: string) => (await hprofHistogram(file)).rows.find((r) => r.className === 'Node')?.instances;

describe('several heap dumps in one file', () => {
  test('segmented dumps, each closed by HEAP_DUMP_END: the first is read, the count is said', async () => {
    const { before, segment, end } = chainParts();
    const file = write('three-segmented.hprof', Buffer.concat([before, segment, end, segment, end, segment, end]));
    const h = await hprofHistogram(file);
    expect(await nodeCount(file)).toBe(4);
    expect(h.warnings.join('\n')).toMatch(/holds 3 heap dumps .*the first was read.*other 2 skipped/);
    const g = await hprofObjectGraph(file);
    expect(g.objects).toBe(chainGraphObjects());
    expect(g.warnings.join('\n')).toMatch(/holds 3 heap dumps/);
    // No index of where the objects lie: a block read on its own could run into the next dump.
    expect((await hprofObjectGraphIndexed(file)).indexed).toBeUndefined();
  });

  test('old-style HEAP_DUMP records, one a dump', async () => {
    const { before, segment } = chainParts();
    const asHeapDump = Buffer.from(segment);
    asHeapDump[0] = 0x0c;
    const file = write('two-heap-dump-records.hprof', Buffer.concat([before, asHeapDump, asHeapDump]));
    expect(await nodeCount(file)).toBe(4);
    expect((await hprofHistogram(file)).warnings.join('\n')).toMatch(/holds 2 heap dumps/);
  });

  test('control: one dump in several segments is one dump, with no warning', async () => {
    const { before, segment, end } = chainParts();
    const file = write('one-dump-two-segments.hprof', Buffer.concat([before, segment, record(0x1c, Buffer.alloc(0)), end]));
    const h = await hprofHistogram(file);
    expect(await nodeCount(file)).toBe(4);
    expect(h.warnings).toEqual([]);
    expect((await hprofObjectGraphIndexed(file)).indexed?.path).toBe(file);
  });
});

/** The objects of chainHeap's graph: the four nodes and the class object. */
function chainGraphObjects(): number {
  return IDS.length + 1;
}

describe('damaged structures are warnings', () => {
  test('an instance field of a type code HPROF does not have', async () => {
    const { before, segment, end } = chainParts();
    const damaged = Buffer.from(segment);
    // The class dump's one field type (the last byte of the class dump, right after the field's name id).
    const classDumpEnd = damaged.indexOf(Buffer.from([0x21]), 9);
    expect(damaged[classDumpEnd - 1]).toBe(2);
    damaged[classDumpEnd - 1] = 99;
    const file = write('invalid-field-type.hprof', Buffer.concat([before, damaged, end]));
    const h = await hprofHistogram(file);
    expect(h.warnings.join('\n')).toMatch(/declares an instance field of type code 99/);
    const g = await hprofObjectGraph(file);
    expect(g.objects).toBe(chainGraphObjects());
    // The nodes' one field cannot be read: no node references another.
    expect(g.warnings.join('\n')).toMatch(/type code 99/);
  });

  test('a static field of a type code HPROF does not have: the segment cannot be sized, and the rest of it is skipped with a warning', async () => {
    const { before, end } = chainParts();
    const CLASS = 0x100;
    const classDump = Buffer.concat([
      Buffer.from([0x20]),
      id8(CLASS),
      u4(0),
      ...Array.from({ length: 6 }, () => id8(0)),
      u4(0),
      Buffer.from([0, 0]),
      Buffer.from([0, 1]),
      id8(2),
      Buffer.from([77]), // a static of no HPROF type
      Buffer.from([0, 0]),
    ]);
    const file = write('invalid-static-type.hprof', Buffer.concat([before, record(0x1c, classDump), end]));
    const h = await hprofHistogram(file);
    expect(h.warnings.join('\n')).toMatch(/constant or static field of no HPROF type.*was skipped/);
  });

  test('object ids written twice: counted where written, and said', async () => {
    const file = write('duplicate-ids.hprof', chainHeap([0x1000, 0x1010, 0x1010, 0x1030]));
    const g = await hprofObjectGraph(file);
    expect(g.warnings.join('\n')).toMatch(/^1 objects repeat the id of an object written before them/m);
    const control = await hprofObjectGraph(write('distinct-ids.hprof', chainHeap(IDS)));
    expect(control.warnings.join('\n')).not.toMatch(/repeat the id/);
  });

  test('instances of a class the dump never describes', async () => {
    const { before, segment, end } = chainParts();
    const stray = Buffer.concat([Buffer.from([0x21]), id8(0x2000), u4(0), id8(0x777), u4(0)]);
    const file = write('undumped-class.hprof', Buffer.concat([before, segment, record(0x1c, stray), end]));
    const h = await hprofHistogram(file);
    expect(h.warnings.join('\n')).toMatch(/^1 instances of classes the dump has no class record for/m);
    expect(h.rows.find((r) => r.className === '(class 0x777)')?.instances).toBe(1);
  });

  test('a name record whose length was damaged past what a JVM name can hold', async () => {
    const { before, segment, end } = chainParts();
    // A name record claiming 70,000 bytes, followed by the dump: the records it covers are lost, and said.
    const damagedName = Buffer.concat([Buffer.from([0x01]), u4(0), u4(70_000), id8(9), Buffer.alloc(70_000 - 8)]);
    const file = write('damaged-name-length.hprof', Buffer.concat([before, damagedName, segment, end]));
    const h = await hprofHistogram(file);
    expect(h.warnings.join('\n')).toMatch(/a name record \(STRING IN UTF8\) at offset \d+ claims 70000 bytes, more than a JVM name can hold/);
    const control = await hprofHistogram(write('undamaged.hprof', chainHeap(IDS)));
    expect(control.warnings).toEqual([]);
  });
});

describe('class dumps after the objects (the old hprof agent writes them last)', () => {
  it('the instances of a root class met before its class dump are loaded all the same', async () => {
    const { before, segment, end } = chainParts();
    // The segment's body: the class dump first, then the rest; written the agent's way round.
    const body = segment.subarray(9);
    const classDumpEnd = body.indexOf(Buffer.from([0x21]));
    const agentOrder = Buffer.concat([body.subarray(classDumpEnd), body.subarray(0, classDumpEnd)]);
    const file = write('class-dump-last.hprof', Buffer.concat([before, record(0x1c, agentOrder), end]));
    const store = await loadHprof(file, { roots: [{ className: 'Node', depth: 0 }] });
    expect([...store.objects.keys()].sort((a, b) => a - b)).toEqual(IDS);
  });
});

describe('--dump N: another heap dump of a file holding several', () => {
  // Dump 1 holds four nodes, dump 2 two (other ids): which was read shows in the counts.
  const first = chainParts();
  const second = chainParts([0x5000, 0x5010]);
  const file = () => write('two-different-dumps.hprof', Buffer.concat([first.before, first.segment, first.end, second.segment, second.end]));

  it('the histogram of dump 2 counts dump 2, and says which was read', async () => {
    const h = await hprofHistogram(file(), undefined, 2);
    expect(await nodeCount(file())).toBe(4);
    expect(h.rows.find((r) => r.className === 'Node')?.instances).toBe(2);
    expect(h.warnings.join('\n')).toMatch(/holds 2 heap dumps .*dump 2 was read \(--dump\)/);
  });

  it('the built CLI: histogram, memory, analyze and extract --dump 2, and a dump the file does not hold is one clear error', () => {
    const path = file();
    const histogram = runBuiltCli(['histogram', '-f', 'json', '--dump', '2', path]);
    expect(histogram.code, histogram.stderr).toBe(0);
    expect(
      (JSON.parse(histogram.stdout) as { rows: Array<{ className: string; instances: number }> }).rows.find((r) => r.className === 'Node')?.instances,
    ).toBe(2);
    const memory = runBuiltCli(['memory', '-f', 'json', '--dump', '2', path]);
    expect(memory.code, memory.stderr).toBe(0);
    expect(memory.stderr).toMatch(/dump 2 was read/);
    // analyze and extract read it too: the heap's objects are dump 2's (two nodes and their class).
    const analyze = runBuiltCli(['analyze', '--fail-on', 'never', '-f', 'json', '--dump', '2', path]);
    expect(analyze.code, analyze.stderr).toBe(0);
    const dumpOne = runBuiltCli(['analyze', '--fail-on', 'never', '-f', 'json', path]);
    const heapObjects = (out: string) => (JSON.parse(out) as { inputs: Array<{ heap?: { objects: number } }> }).inputs[0]!.heap?.objects;
    expect(heapObjects(analyze.stdout)! - heapObjects(dumpOne.stdout)!).toBe(-2);
    const snapshot = join(dir, 'dump-2.json');
    const extract = runBuiltCli(['extract', '--dump', '2', path, '-o', snapshot]);
    expect(extract.code, extract.stderr).toBe(0);
    const fromSnapshot = runBuiltCli(['histogram', '-f', 'json', snapshot]);
    expect(
      (JSON.parse(fromSnapshot.stdout) as { rows: Array<{ className: string; instances: number }> }).rows.find((r) => r.className === 'Node')?.instances,
    ).toBe(2);
    const missing = runBuiltCli(['histogram', '--dump', '3', path]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error: \S+two-different-dumps\.hprof: there is no heap dump 3 in this file: it holds 2\n/);
  });
});
