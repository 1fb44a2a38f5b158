/**
 * jmap's multi-member gzip output inflated on worker threads: the bytes must equal a plain gunzip,
 * and a member that does not inflate as its trailer says hands over to the sequential path.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

import { describe, expect, it } from 'vitest';

import { hprofHistogram } from '../../src/heap/hprof/hprof-histogram.js';
import { jmapGzipBlockSize, parallelGunzip } from '../../src/heap/hprof/parallel-gunzip.js';
import { scratchDir } from '../helpers.js';

const JMAP_GZ = join('fixtures', 'heap', 'jdk17', 'heap-jmapgz.hprof.gz');
const dir = scratchDir('pgz');

async function inflateAll(path: string): Promise<{ result: Awaited<ReturnType<typeof parallelGunzip>>; bytes: Buffer }> {
  const parts: Buffer[] = [];
  // The fixtures are small: the size below which one thread inflates is set to 0 to test the workers.
  const result = await parallelGunzip(
    path,
    jmapGzipBlockSize(path)!,
    (b) => parts.push(Buffer.from(b)),
    () => false,
    undefined,
    undefined,
    0,
  );
  return { result, bytes: Buffer.concat(parts) };
}

describe('parallel gunzip of jmap gz=N dumps', () => {
  it('recognises the block size in the first member only', () => {
    expect(jmapGzipBlockSize(JMAP_GZ)).toBe(1048576);
    expect(jmapGzipBlockSize(join('fixtures', 'heap', 'jdk17', 'heap.hprof.gz'))).toBeUndefined();
  });

  it('gives exactly the bytes a sequential gunzip gives', async () => {
    const { result, bytes } = await inflateAll(JMAP_GZ);
    expect(result).toEqual({ done: true });
    expect(bytes.equals(gunzipSync(readFileSync(JMAP_GZ)))).toBe(true);
  });

  it('hands over to the sequential path at a member that does not inflate', async () => {
    const whole = readFileSync(JMAP_GZ);
    // Damage the deflate data four fifths into the file (inside the third member: objects come before it).
    const damaged = Buffer.from(whole);
    for (let i = 0; i < 64; i++) damaged[Math.floor(whole.length * 0.8) + i]! ^= 0xa5;
    const path = join(dir, 'damaged.hprof.gz');
    writeFileSync(path, damaged);
    const { result, bytes } = await inflateAll(path);
    expect(result.done).toBe(false);
    if (result.done) return;
    expect(result.resumeAt).toBeGreaterThan(0);
    // Everything handed over before the damaged member is exact.
    expect(bytes.equals(gunzipSync(whole).subarray(0, bytes.length))).toBe(true);
    // The reader as a whole (which inflates a file this small on one thread): the objects before the damage, and a warning.
    const h = await hprofHistogram(path);
    expect(h.totalInstances).toBeGreaterThan(0);
    expect(h.warnings.join('\n')).toMatch(/in the middle of a record/);
  });

  it('a false member start inside the data is caught by the size check', async () => {
    // Members whose deflate data contains the pattern a member start is searched by.
    const block = 4096;
    const members: Buffer[] = [];
    const header = Buffer.from('1f8b081000000000000448', 'hex');
    const first = Buffer.concat([header.subarray(0, 10), Buffer.from(`HPROF BLOCKSIZE=${block}\0`, 'latin1'), gzipSync(Buffer.alloc(block, 1)).subarray(10)]);
    members.push(first);
    for (let i = 0; i < 5; i++) {
      // Stored data that looks like a trailer (ISIZE 4096) followed by a gzip header.
      const payload = Buffer.alloc(block, 0x20);
      Buffer.from('001000001f8b0800000000000000', 'hex').copy(payload, 100);
      members.push(gzipSync(payload, { level: 0 }));
    }
    const path = join(dir, 'tricky.gz');
    writeFileSync(path, Buffer.concat(members));
    const { result, bytes } = await inflateAll(path);
    const expected = gunzipSync(readFileSync(path));
    if (result.done) expect(bytes.equals(expected)).toBe(true);
    else expect(bytes.equals(expected.subarray(0, bytes.length))).toBe(true);
  });
});

describe('stopping the workers', { timeout: 120_000 }, () => {
  // Regression (fuzz seeds 4020, 4025): the workers were terminated while inflating the members ahead,
  // and a thread stopped inside zlib's set-up made Node abort the whole process ("close before init").
  // They now finish the member in hand and exit. Tiny members make zlib's set-up most of each job;
  // stopping early, again and again, must leave the process alive.
  it('stopping while tiny members are still inflating, many times, leaves the process alive', async () => {
    const block = 4096;
    const header = Buffer.from('1f8b081000000000000448', 'hex');
    const members = [Buffer.concat([header.subarray(0, 10), Buffer.from(`HPROF BLOCKSIZE=${block}\0`, 'latin1'), gzipSync(Buffer.alloc(64, 1)).subarray(10)])];
    for (let i = 0; i < 3000; i++) members.push(gzipSync(Buffer.alloc(64, i & 0xff)));
    const path = join(dir, 'tiny-members.gz');
    writeFileSync(path, Buffer.concat(members));
    for (let round = 0; round < 150; round++) {
      let chunks = 0;
      const result = await parallelGunzip(
        path,
        block,
        () => chunks++,
        () => chunks > round,
        undefined,
        4,
        0,
      );
      expect(result).toEqual({ done: true });
    }
  });
});
