/**
 * What a heap dump file holds. Choosing whether and where the memory analysis runs takes a plain
 * file's size, or 2.5 times a gzip file's, whatever its trailer says (a cut file's last bytes are
 * compressed data, and the trailer's size wraps past 4 GiB). Sizing a pass's arrays, which only
 * sizes them, believes the trailer when it is a plausible inflation of a small heap.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

import { expect, test } from 'vitest';

import { hprofBytesEstimate, hprofBytesToSizeFor } from '../../src/heap/hprof/byte-source.js';
import { scratchDir } from '../helpers.js';

const SINGLE = 'fixtures/heap/retained/heap.hprof.gz';
const JMAP_GZ = 'fixtures/heap/jdk17/heap-jmapgz.hprof.gz';
const dir = scratchDir('estimate');

test('for choosing: a plain file, its size; a gzip file, whole or cut, 2.5 times its size', () => {
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

test('for sizing: a whole gzip file of one member, what it inflates to; jmap gz, a cut file or an implausible trailer, within bounds', () => {
  expect(hprofBytesToSizeFor(SINGLE)).toBe(gunzipSync(readFileSync(SINGLE)).length);
  const small = join(dir, 'small.hprof.gz');
  writeFileSync(small, gzipSync(Buffer.alloc(1000, 7)));
  // 1000 bytes of one value shrink more than 32 times: not believed.
  expect(hprofBytesToSizeFor(small)).toBe(statSync(small).size * 2.5);
  // jmap's members: the last one's trailer is less than the file.
  expect(hprofBytesToSizeFor(JMAP_GZ)).toBe(statSync(JMAP_GZ).size * 2.5);
  const whole = readFileSync(SINGLE);
  for (let k = 1; k < 40; k++) {
    const cut = join(dir, `cut-${k}.hprof.gz`);
    const bytes = whole.subarray(0, Math.floor((whole.length * k) / 40));
    writeFileSync(cut, bytes);
    const hint = hprofBytesToSizeFor(cut);
    expect(hint === bytes.length * 2.5 || (hint >= bytes.length && hint <= bytes.length * 32 && hint <= 256 * 1024 * 1024), `cut ${k}/40: ${hint}`).toBe(true);
  }
  const tiny = join(dir, 'tiny.hprof.gz');
  writeFileSync(tiny, whole.subarray(0, 10));
  expect(hprofBytesToSizeFor(tiny)).toBe(25);
});
