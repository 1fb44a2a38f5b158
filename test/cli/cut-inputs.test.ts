/**
 * Never a quiet answer on part of the evidence: an input read only in part, or a file of the incident
 * not read at all, is said at the top of every format and in the JSON (`complete: false`); a heap dump
 * of which nothing could be read is an error (exit 2), not an empty heap; and a real JVM's heap that
 * compresses like a decompression bomb (fixtures/heap/sparse: a 300 MiB zeroed array nothing
 * references) is read whole, as its plain file is.
 */
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

import { describe, expect, it } from 'vitest';

import { REPORT_FORMATS } from '../../src/report/renderers.js';
import { chainHeap, id8, record, u4 } from '../heap/hand-hprof.js';
import { FIXTURES, runCli, scratchDir } from '../helpers.js';

const dir = scratchDir('cut');
const SPARSE = 'fixtures/heap/sparse/heap.hprof.gz';
const HEAP = 'fixtures/heap/jdk17/heap.hprof.gz';
/** A PNG's first bytes: what a heap.hprof is when a screenshot was saved under its name. */
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

interface MemoryJson {
  complete: boolean;
  cut?: string;
  heap: { objects: number; reachableObjects: number; roots: Record<string, number> };
  dominators: Array<{ className: string; retained: number }>;
  warnings: string[];
}

describe('a heap that inflates hundreds of times is read whole', { timeout: 120_000 }, () => {
  const plain = join(dir, 'sparse.hprof');
  writeFileSync(plain, gunzipSync(readFileSync(SPARSE)));
  const truth = JSON.parse(readFileSync('fixtures/heap/sparse/truth.json', 'utf8')) as { unreachableByteArrayLength: number };

  it('gzip or plain, the same memory analysis, the GC roots found, the big array unreachable', async () => {
    const gz = await runCli(['memory', '-f', 'json', '--top', '20', SPARSE]);
    const pl = await runCli(['memory', '-f', 'json', '--top', '20', plain]);
    expect(gz.code, gz.stderr).toBe(0);
    expect(pl.code, pl.stderr).toBe(0);
    const a = JSON.parse(gz.stdout) as MemoryJson;
    const b = JSON.parse(pl.stdout) as MemoryJson;
    expect(a.complete).toBe(true);
    expect(a.warnings).toEqual([]);
    expect(gz.stderr).not.toMatch(/decompression bomb|inflates/);
    expect({ ...a, source: '' }).toEqual({ ...b, source: '' });
    // The dump's own GC roots, not the unreferenced objects taken as roots.
    expect(Object.keys(a.heap.roots)).not.toContain('unreferenced');
    expect(a.heap.roots['system-class']).toBeGreaterThan(0);
    // The 300 MiB byte[] nothing references retains nothing: no dominator is that big.
    expect(Math.max(...a.dominators.map((d) => d.retained))).toBeLessThan(truth.unreachableByteArrayLength / 100);
  });

  it('histogram: every object, as from the plain file', async () => {
    const gz = await runCli(['histogram', '-f', 'json', SPARSE]);
    const pl = await runCli(['histogram', '-f', 'json', plain]);
    const a = JSON.parse(gz.stdout) as { complete: boolean; totalInstances: number; rows: Array<{ className: string; instances: number }> };
    const b = JSON.parse(pl.stdout) as typeof a;
    expect(a.complete).toBe(true);
    expect(a.totalInstances).toBe(b.totalInstances);
    expect(a.rows).toEqual(b.rows);
  });
});

describe('a heap dump of which nothing can be read is an error', { timeout: 120_000 }, () => {
  const cases: Array<[string, Buffer, RegExp]> = [
    ['cut within its header', Buffer.from('JAVA PROFI'), /is an HPROF heap dump cut within its header \(10 bytes\): nothing of it can be read/],
    ['a gzip cut before its first object', readFileSync(HEAP).subarray(0, 200), /nothing of the heap dump could be read: the heap dump ends/],
  ];
  for (const [what, bytes, message] of cases) {
    it(`${what}: memory, histogram, extract and analyze exit 2, saying why`, async () => {
      const file = join(dir, what.replace(/\W+/g, '-') + (bytes[0] === 0x1f ? '.hprof.gz' : '.hprof'));
      writeFileSync(file, bytes);
      for (const args of [
        ['memory', file],
        ['histogram', file],
        ['extract', file, '-o', join(dir, 'x.json')],
        ['analyze', file],
      ]) {
        const r = await runCli(args);
        expect(r.code, `${args[0]}: ${r.stderr}`).toBe(2);
        expect(r.stderr, args[0]).toMatch(message);
        expect(r.stdout, args[0]).toBe('');
      }
    });
  }

  it('a heap cut mid-way: what it holds, and at the top that it was read only in part', async () => {
    const file = join(dir, 'half.hprof');
    writeFileSync(file, gunzipSync(readFileSync(HEAP)).subarray(0, 2_500_000));
    const memory = await runCli(['memory', file]);
    expect(memory.code).toBe(0);
    expect(memory.stdout.split('\n')[1]).toMatch(/^Incomplete: the heap dump was read only in part, .*in the middle of a record at byte 2499992/);
    const json = JSON.parse((await runCli(['memory', '-f', 'json', file])).stdout) as MemoryJson;
    expect(json.complete).toBe(false);
    expect(json.cut).toMatch(/in the middle of a record at byte 2499992/);
    expect(json.heap.objects).toBeGreaterThan(0);
    const histogram = await runCli(['histogram', file]);
    expect(histogram.stdout.split('\n')[0]).toMatch(/^Incomplete: .*half\.hprof was read only in part/);
    // A snapshot extracted from it for a ticket says so too, when it is analysed.
    const snapshot = join(dir, 'half.json.gz');
    expect((await runCli(['extract', file, '-o', snapshot])).code).toBe(0);
    const fromSnapshot = JSON.parse((await runCli(['analyze', '--fail-on', 'never', '-f', 'json', snapshot])).stdout) as {
      complete: boolean;
      incomplete: Array<{ why: string }>;
    };
    expect(fromSnapshot.complete).toBe(false);
    expect(fromSnapshot.incomplete[0]!.why).toMatch(/in the middle of a record at byte 2499992/);
    // Negative control: a whole dump says nothing of the kind.
    expect((await runCli(['memory', HEAP])).stdout).not.toMatch(/Incomplete/);
    expect(JSON.parse((await runCli(['memory', '-f', 'json', HEAP])).stdout).complete).toBe(true);
  });
});

describe('every format says what was not read, at the top', { timeout: 120_000 }, () => {
  const incident = mkdtempSync(join(dir, 'incident-'));
  copyFileSync(join(FIXTURES, 'deadlock', 'dump-1.txt'), join(incident, 'dump-1.txt'));
  writeFileSync(join(incident, 'heap.hprof'), PNG);
  writeFileSync(join(incident, 'notes.md'), 'what we saw\n');

  it('text, Markdown, HTML and JSON name the PNG that was the heap dump and the notes, before the findings', async () => {
    const outputs: Record<string, string> = {};
    for (const format of REPORT_FORMATS) {
      const r = await runCli(['analyze', '--fail-on', 'never', '-f', format, incident]);
      expect(r.code, r.stderr).toBe(0);
      outputs[format] = r.stdout;
    }
    for (const [format, out] of Object.entries(outputs)) {
      if (format === 'json') continue;
      expect(out, format).toMatch(/Incomplete: this report stands on part of the evidence/);
      expect(out, format).toMatch(/heap\.hprof was not read: it is a PNG image/);
      expect(out, format).toMatch(/notes\.md was not read: it is text with no thread dump in it/);
      // At the top: before the first finding.
      expect(out.indexOf('heap.hprof was not read'), format).toBeLessThan(out.indexOf('deadlock'));
    }
    const json = JSON.parse(outputs['json']!) as { complete: boolean; leftOut: { files: Array<{ path: string; why: string; evidence: boolean }> } };
    expect(json.complete).toBe(false);
    expect(json.leftOut.files.map((f) => [f.path.slice(incident.length + 1), f.evidence])).toEqual([
      ['heap.hprof', true],
      ['notes.md', false],
    ]);
  });

  it('a stray file alone leaves the report complete, and still listed', async () => {
    const other = mkdtempSync(join(dir, 'incident-'));
    copyFileSync(join(FIXTURES, 'deadlock', 'dump-1.txt'), join(other, 'dump-1.txt'));
    writeFileSync(join(other, 'notes.md'), 'what we saw\n');
    const json = JSON.parse((await runCli(['analyze', '--fail-on', 'never', '-f', 'json', other])).stdout) as {
      complete: boolean;
      leftOut: { files: unknown[] };
    };
    expect(json.complete).toBe(true);
    expect(json.leftOut.files).toHaveLength(1);
    const text = (await runCli(['analyze', '--fail-on', 'never', other])).stdout;
    expect(text).toMatch(/^Not read\n {2}\S+notes\.md was not read/m);
    expect(text).not.toMatch(/Incomplete/);
  });

  it('a file given by name that cannot be read is in the report, and the exit is 2', async () => {
    const png = join(dir, 'given.hprof');
    writeFileSync(png, PNG);
    const r = await runCli(['analyze', '--fail-on', 'never', '-f', 'json', join(FIXTURES, 'deadlock', 'dump-1.txt'), png]);
    expect(r.code).toBe(2);
    const json = JSON.parse(r.stdout) as { complete: boolean; leftOut: { files: Array<{ path: string; evidence: boolean }> } };
    expect(json.complete).toBe(false);
    expect(json.leftOut.files).toEqual([expect.objectContaining({ path: png, evidence: true })]);
  });
});

describe('every command that reads gzip takes --max-gunzip-size', { timeout: 120_000 }, () => {
  for (const args of [['histogram'], ['memory'], ['extract', '-o', join(dir, 'limited.json')]]) {
    it(args[0]!, async () => {
      const r = await runCli([args[0]!, '--max-gunzip-size', '1m', HEAP, ...args.slice(1)]);
      // 1 MiB of the dump holds its class records and no object: refused, naming the limit.
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/reading stopped at 1 MiB of decompressed data \(the --max-gunzip-size limit/);
      expect(r.stderr).toMatch(/raise --max-gunzip-size to read on/);
    });
  }
});

describe('a damaged heap says so in analyze, as memory and histogram do', { timeout: 120_000 }, () => {
  // Hand-built heaps (a format edge case no JVM here writes): the chain of test/heap/hand-hprof.ts.
  const warningsOf = async (file: string) =>
    (JSON.parse((await runCli(['analyze', '--fail-on', 'never', '-f', 'json', file])).stdout) as { inputs: Array<{ warnings: string[] }> }).inputs[0]!.warnings;

  it('objects that repeat an id, instances of a class never dumped; the undamaged chain says nothing', async () => {
    const duplicate = join(dir, 'duplicate-ids.hprof');
    writeFileSync(duplicate, chainHeap([0x1000, 0x1010, 0x1010, 0x1030]));
    expect((await warningsOf(duplicate)).join('\n')).toMatch(/^1 objects repeat the id of an object written before them/m);

    const whole = chainHeap([0x1000, 0x1010, 0x1020, 0x1030]);
    let p = whole.indexOf(0) + 13;
    while (whole[p] !== 0x1c) p += 9 + whole.readUInt32BE(p + 5);
    const segmentEnd = p + 9 + whole.readUInt32BE(p + 5);
    const stray = Buffer.concat([Buffer.from([0x21]), id8(0x2000), u4(0), id8(0x777), u4(0)]);
    const undumped = join(dir, 'undumped-class.hprof');
    writeFileSync(undumped, Buffer.concat([whole.subarray(0, segmentEnd), record(0x1c, stray), whole.subarray(segmentEnd)]));
    expect((await warningsOf(undumped)).join('\n')).toMatch(/^1 instances of classes the dump has no class record for/m);

    const control = join(dir, 'chain.hprof');
    writeFileSync(control, whole);
    expect(await warningsOf(control)).toEqual([]);
  });
});

describe('evidence the inputs cannot hold is said at the top', { timeout: 120_000 }, () => {
  it('a JDK 25 Thread.print dump of a JVM running virtual threads: incomplete, with the command that lists them, before "No findings."', async () => {
    const dump = 'fixtures/incidents/virtual-thread-deadlock/dump-1.txt';
    const text = (await runCli(['analyze', dump])).stdout;
    expect(text).toMatch(/^Incomplete: this report stands on part of the evidence\n {2}.*virtual threads.*Thread\.dump_to_file -format=json/m);
    expect(text.indexOf('Incomplete:')).toBeLessThan(text.indexOf('No findings.'));
    // Said once: the block at the top, not again among the notes at the end.
    expect(text.match(/Thread\.dump_to_file -format=json/g)).toHaveLength(1);
    const json = JSON.parse((await runCli(['analyze', '-f', 'json', dump])).stdout) as { complete: boolean; missingEvidence: string[] };
    expect(json.complete).toBe(false);
    expect(json.missingEvidence.join('\n')).toMatch(/virtual threads/);
    // With the JSON dump of the same moment beside it, nothing is missing.
    const both = JSON.parse(
      (await runCli(['analyze', '--fail-on', 'never', '-f', 'json', dump, 'fixtures/incidents/virtual-thread-deadlock/dump-1.json.gz'])).stdout,
    ) as { complete: boolean; missingEvidence: string[] };
    expect(both.missingEvidence).toEqual([]);
    expect(both.complete).toBe(true);
  });
});
