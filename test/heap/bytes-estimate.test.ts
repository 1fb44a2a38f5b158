/**
 * What a heap dump file holds, as the memory analysis sizes its arrays and chooses where to run:
 * a plain file's size; a gzip file's inflated size from its trailer when that is plausible; else
 * (jmap's many-member gz output, whose trailer gives only its last block) 2.5 times its size.
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { expect, test } from 'vitest';
import { hprofBytesEstimate } from '../../src/heap/hprof/byte-source.js';

const SINGLE = 'fixtures/heap/retained/heap.hprof.gz';
const JMAP_GZ = 'fixtures/heap/jdk17/heap-jmapgz.hprof.gz';

test('a plain file: its size; a gzip file of one member: the size it inflates to', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dumpsleuth-estimate-'));
  const plain = join(dir, 'heap.hprof');
  const bytes = gunzipSync(readFileSync(SINGLE));
  writeFileSync(plain, bytes);
  expect(hprofBytesEstimate(plain)).toBe(bytes.length);
  expect(hprofBytesEstimate(SINGLE)).toBe(bytes.length);
  const small = join(dir, 'small.hprof.gz');
  writeFileSync(small, gzipSync(bytes.subarray(0, 1000)));
  expect(hprofBytesEstimate(small)).toBe(1000);
});

test('jmap gz=N output (many members): 2.5 times the file, not the last block', () => {
  const inflated = gunzipSync(readFileSync(JMAP_GZ)).length;
  const size = statSync(JMAP_GZ).size;
  expect(hprofBytesEstimate(JMAP_GZ)).toBe(size * 2.5);
  // The trailer's own figure would be far too small: the last block only.
  expect(readFileSync(JMAP_GZ).readUInt32LE(size - 4)).toBeLessThan(inflated / 2);
});

test('a gzip file cut before its trailer, or whose trailer says less than the file: 2.5 times the file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dumpsleuth-estimate-'));
  const cut = join(dir, 'cut.hprof.gz');
  const whole = readFileSync(SINGLE);
  writeFileSync(cut, whole.subarray(0, 10));
  expect(hprofBytesEstimate(cut)).toBe(25);
  const lying = Buffer.from(whole);
  lying.writeUInt32LE(5, lying.length - 4);
  writeFileSync(cut, lying);
  expect(hprofBytesEstimate(cut)).toBe(lying.length * 2.5);
});
