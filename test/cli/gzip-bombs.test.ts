/**
 * A text input that inflates like a bomb (zeros, newlines: hundreds of times its size) ends in seconds
 * at the default settings, with a message saying why and what to pass to read it all the same; the
 * text or records before the stop are still used. A real dump never inflates so far (see
 * inflationBomb), and a limit given on the command line turns the guard off. An HPROF is read as a stream
 * bounded by its records, never judged by its compression (test/cli/cut-inputs.test.ts reads a real one
 * that inflates 274-fold). The files are made here: a bomb is its size, not its content.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { describe, expect, it } from 'vitest';

import { inflationBomb } from '../../src/model/bytes.js';
import { FIXTURES, runBuiltCli, scratchDir } from '../helpers.js';

const dir = scratchDir('bombs');
const MiB = 1024 * 1024;

function gzipFile(name: string, parts: Buffer[]): string {
  const file = join(dir, name);
  writeFileSync(file, gzipSync(Buffer.concat(parts), { level: 9 }));
  return file;
}

describe('decompression bombs', { timeout: 120_000 }, () => {
  it('the ratio that gives a bomb away falls as more is inflated; dumps never reach it', () => {
    expect(inflationBomb(20 * 1024, 16 * MiB)).toMatch(/inflates 819-fold/);
    expect(inflationBomb(20 * 1024, 15 * MiB)).toBeUndefined();
    expect(inflationBomb(40 * 1024, 16 * MiB)).toBeUndefined();
    expect(inflationBomb(150 * 1024, 32 * MiB)).toMatch(/inflates 218-fold/);
    expect(inflationBomb(150 * 1024, 31 * MiB)).toBeUndefined();
    // A real heap dump inflates 3 to 30 times, however big.
    expect(inflationBomb(400 * MiB, 8 * 1024 * MiB)).toBeUndefined();
  });

  it('a thread-dump log of newlines after a real dump: the dump is analysed, and why reading stopped is said', () => {
    const dump = readFileSync(join(FIXTURES, 'deadlock', 'dump-1.txt'));
    const file = gzipFile('dump-then-newlines.log.gz', [dump, Buffer.alloc(40 * MiB, 10)]);
    const r = runBuiltCli(['analyze', '--fail-on', 'never', '--format', 'json', file]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { inputs: Array<{ threads: number; warnings: string[] }> };
    expect(report.inputs[0]!.threads).toBeGreaterThan(0);
    expect(report.inputs[0]!.warnings.join('\n')).toMatch(/reading stopped at \d+\.\d MiB decompressed .*inflates \d+-fold.*--max-gunzip-size/);
  });

  it('newlines alone: one clear line, exit 2, naming the cause', () => {
    const file = gzipFile('newlines.log.gz', [Buffer.alloc(40 * MiB, 10)]);
    const r = runBuiltCli(['analyze', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: \S+newlines\.log\.gz is a file of blank lines \(reading stopped at .* decompression bomb/);
  });

  it('a limit given on the command line reads it all', () => {
    const file = gzipFile('padding.log.gz', [Buffer.alloc(20 * MiB, 10)]);
    const r = runBuiltCli(['analyze', '--max-gunzip-size', '1g', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is a file of blank lines/);
    expect(r.stderr).not.toMatch(/decompression bomb/);
  });

  it('an HPROF is bounded by its records, not its compression: 40 MiB of zeros after a name record that claims 4 GB end at the data, nothing read', () => {
    const header = Buffer.concat([Buffer.from('JAVA PROFILE 1.0.2\0'), Buffer.from([0, 0, 0, 8]), Buffer.alloc(8)]);
    const hugeName = Buffer.concat([Buffer.from([0x01, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xf0])]);
    const file = gzipFile('zero-name.hprof.gz', [header, hugeName, Buffer.alloc(40 * MiB)]);
    for (const command of ['histogram', 'memory']) {
      const r = runBuiltCli([command, file]);
      // No object in it: nothing of the heap could be read, said as an error, and why.
      expect(r.code, `${command}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/nothing of the heap dump could be read: the heap dump ends at byte \d+ of the decompressed stream/);
      expect(r.stderr).not.toMatch(/decompression bomb/);
    }
  });
});
