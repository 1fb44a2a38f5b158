/**
 * What a heap dump file holds, as the memory analysis sizes its arrays and chooses whether and where
 * to run: a plain file's size; a gzip file, 2.5 times its size, whatever its trailer says (a cut
 * file's last bytes are compressed data, and the trailer's size wraps past 4 GiB).
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { expect, test } from 'vitest';
import { hprofBytesEstimate } from '../../src/heap/hprof/byte-source.js';

const SINGLE = 'fixtures/heap/retained/heap.hprof.gz';

test('a plain file: its size; a gzip file, whole or cut: 2.5 times its size', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dumpsleuth-estimate-'));
  const plain = join(dir, 'heap.hprof');
  writeFileSync(plain, gunzipSync(readFileSync(SINGLE)));
  expect(hprofBytesEstimate(plain)).toBe(statSync(plain).size);
  expect(hprofBytesEstimate(SINGLE)).toBe(statSync(SINGLE).size * 2.5);
  const whole = readFileSync(SINGLE);
  for (const keep of [0.3, 0.5, 0.9]) {
    const cut = join(dir, `cut-${keep}.hprof.gz`);
    writeFileSync(cut, whole.subarray(0, Math.floor(whole.length * keep)));
    expect(hprofBytesEstimate(cut)).toBe(statSync(cut).size * 2.5);
  }
});
