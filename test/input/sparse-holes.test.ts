/**
 * The hole of a sparse file (a log truncated in place while its writer goes on: thousands of NUL bytes
 * before the text, or inside it) is no sign of binary data: the dump after it is read whole, with the
 * NULs said. Binary data with short runs of NUL among other control bytes is still refused as such.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { FIXTURES, runCli, scratchDir } from '../helpers.js';

const dir = scratchDir('holes');
const dump = readFileSync(join(FIXTURES, 'deadlock', 'dump-1.txt'));
const put = (name: string, bytes: Buffer) => (writeFileSync(join(dir, name), bytes), join(dir, name));
const threadsOf = async (file: string) => {
  const r = await runCli(['analyze', '--fail-on', 'never', '-f', 'json', file]);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { inputs: Array<{ threads: number; warnings: string[] }> }).inputs[0]!;
};

describe('NUL holes in a text dump', { timeout: 60_000 }, () => {
  it('a hole before the dump, and one inside it: every thread, and the NULs said', async () => {
    const whole = (await threadsOf(put('whole.txt', dump))).threads;
    for (const [name, bytes] of [
      ['hole-first.txt', Buffer.concat([Buffer.alloc(20_000), dump])],
      ['hole-inside.txt', Buffer.concat([dump.subarray(0, 3000), Buffer.alloc(5000), dump.subarray(3000)])],
    ] as const) {
      const input = await threadsOf(put(name, bytes));
      expect(input.threads, name).toBe(whole);
      expect(input.warnings.join('\n'), name).toMatch(/NUL characters were dropped/);
    }
  });

  it('NUL bytes only: said as the hole it is', async () => {
    const r = await runCli(['analyze', put('all-nul.txt', Buffer.alloc(20_000))]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is NUL bytes only \(the hole of a sparse file/);
  });

  it('negative control: binary data with short NUL runs is still binary data', async () => {
    const bytes = Buffer.alloc(4096);
    for (let i = 0; i < bytes.length; i++) bytes[i] = i % 7 === 0 ? 0 : (i * 37) % 9;
    const r = await runCli(['analyze', put('blob.dat', bytes)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is binary data, not a thread dump/);
  });
});
