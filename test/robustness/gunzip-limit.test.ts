/**
 * The decompressed-size guard: a small gzip file that inflates to far more (a gzip bomb, or a
 * damaged length) stops at --max-gunzip-size with a warning and keeps what came before; the flag
 * raises the limit. Both for text inputs and for HPROF.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

import { describe, expect, it } from 'vitest';

import { parseByteSize } from '../../src/model/bytes.js';
import { runCli, scratchDir } from '../helpers.js';

/** The CLI, in-process. */
const cli = runCli;

describe('--max-gunzip-size', { timeout: 120_000 }, () => {
  const dir = scratchDir('bomb');

  it('parses sizes', async () => {
    expect(parseByteSize('16g')).toBe(16 * 1024 ** 3);
    expect(parseByteSize('512MiB')).toBe(512 * 1024 ** 2);
    expect(parseByteSize('1000')).toBe(1000);
    expect(parseByteSize('lots')).toBeUndefined();
    expect(parseByteSize('0')).toBeUndefined();
  });

  // 20 times the limit is as much a bomb as 2,000 times: what is checked is the stop at the limit, not the size.
  it('a text dump followed by 20 MB of blank lines, gzipped to 20 KB: stops at the limit, keeps the threads', async () => {
    const dump = readFileSync('fixtures/threads/deadlock/dump-1.txt');
    const file = join(dir, 'bomb.txt.gz');
    writeFileSync(file, gzipSync(Buffer.concat([dump, Buffer.alloc(20 * 1024 * 1024, 0x0a)]), { level: 9 }));
    const limited = await cli(['analyze', '--fail-on', 'never', '--max-gunzip-size', '1m', file]);
    expect(limited.code).toBe(0);
    expect(limited.stdout).toMatch(/stopped at 1 MiB decompressed \(the --max-gunzip-size limit\)/);
    expect(limited.stdout).toMatch(/deadlock/);
    const raised = await cli(['analyze', '--fail-on', 'never', '--max-gunzip-size', '1g', file]);
    expect(raised.stdout).not.toMatch(/max-gunzip-size/);
  });

  it('an HPROF cut at the limit reads as a truncated dump, with the reason', async () => {
    const file = join(dir, 'heap.hprof.gz');
    writeFileSync(file, gzipSync(gunzipSync(readFileSync('fixtures/heap/jdk17/heap.hprof.gz'))));
    // 2 MiB of its 3.3 MiB: past the class records, into the objects.
    const limited = await cli(['analyze', '--fail-on', 'never', '-f', 'json', '--max-gunzip-size', '2m', file]);
    expect(limited.code).toBe(0);
    const report = JSON.parse(limited.stdout);
    const warnings: string[] = report.inputs[0].warnings;
    expect(warnings.join('\n')).toMatch(/reading stopped at 2 MiB of decompressed data \(the --max-gunzip-size limit/);
    // Said at the top of the report too: the answer stands on part of the heap.
    expect(report.complete).toBe(false);
    expect(report.incomplete[0].why).toMatch(/the --max-gunzip-size limit/);
    // 1 MiB holds the class records and no object: nothing of the heap was read, which is an error, not an empty heap.
    const nothing = await cli(['analyze', '--fail-on', 'never', '--max-gunzip-size', '1m', file]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toMatch(/nothing of the heap dump could be read: reading stopped at 1 MiB .*\n {2}raise --max-gunzip-size to read on/);
  });

  it('a bad size is a usage error', async () => {
    const r = await cli(['analyze', '--max-gunzip-size', 'huge', 'fixtures/threads/deadlock/dump-1.txt']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--max-gunzip-size huge is not a size/);
  });
});
