/**
 * Inputs that are not regular files: a device has no end (refused at once, exit 2, one line), a named
 * pipe is read once like stdin (its head is not read twice), and a terminal on stdin is refused
 * instead of waiting without a word.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { BUILT_CLI, FIXTURES, runBuiltCli } from '../helpers.js';

const DUMP = join(FIXTURES, 'deadlock', 'dump-1.txt');

describe('inputs that are not regular files', { timeout: 120_000 }, () => {
  it('a device is refused at once, for analyze and histogram', () => {
    for (const args of [
      ['analyze', '/dev/urandom'],
      ['histogram', '/dev/zero'],
    ]) {
      const r = runBuiltCli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^error: \/dev\/\w+ is a device, not a file: it has no end to read to/);
    }
  });

  it('a named pipe is read once, like stdin', async () => {
    const d = mkdtempSync(join(tmpdir(), 'dumpsleuth-fifo-'));
    const fifo = join(d, 'dump.fifo');
    if (spawnSync('mkfifo', [fifo]).status !== 0) return;
    const writer = spawn('sh', ['-c', `cat ${JSON.stringify(DUMP)} > ${JSON.stringify(fifo)}`]);
    const r = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const p = spawn(process.execPath, [BUILT_CLI, 'analyze', '--fail-on', 'never', '--format', 'json', fifo]);
      let out = '';
      p.stdout.on('data', (b: Buffer) => (out += b.toString()));
      p.on('close', (code) => resolve({ code, out }));
    });
    writer.kill();
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as { inputs: Array<{ threads: number }> };
    const direct = JSON.parse(runBuiltCli(['analyze', '--fail-on', 'never', '--format', 'json', DUMP]).stdout) as typeof report;
    expect(report.inputs[0]!.threads).toBe(direct.inputs[0]!.threads);
  });

  it('a line longer than a string can hold is cut with a warning, and the dumps around it are read', () => {
    const d = mkdtempSync(join(tmpdir(), 'dumpsleuth-long-line-'));
    const file = join(d, 'dump-long-line.log');
    const dump = readFileSync(DUMP);
    // 600 MB of one line (of zero bytes, a hole in a sparse file: nothing written): past V8's longest
    // string (about 512 MB), which once ended in "Invalid string length", exit 70.
    const fd = openSync(file, 'w');
    writeSync(fd, dump, 0, dump.length, 0);
    const after = Buffer.concat([Buffer.from('\n'), dump]);
    writeSync(fd, after, 0, after.length, dump.length + 600 * 1024 * 1024);
    closeSync(fd);
    const r = runBuiltCli(['analyze', '--fail-on', 'never', '--format', 'json', file]);
    rmSync(d, { recursive: true });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { inputs: Array<{ dumps: number; warnings: string[] }> };
    expect(report.inputs[0]!.dumps).toBe(2);
    expect(report.inputs[0]!.warnings.join('\n')).toMatch(/1 line longer than 67108864 characters was cut at that length/);
  });

  it('a terminal on stdin is refused with what to do', () => {
    if (!existsSync('/usr/bin/script')) return;
    const r = spawnSync('script', ['-qec', `${JSON.stringify(process.execPath)} ${JSON.stringify(BUILT_CLI)} analyze -`, '/dev/null'], {
      encoding: 'utf8',
      timeout: 60_000,
      input: '',
    });
    expect(r.stdout).toMatch(/error: standard input is a terminal, with no dump piped into it/);
  });
});

describe('a folder of many files that are not dumps', { timeout: 120_000 }, () => {
  it('names the first 20 skipped files and counts the rest in one line', () => {
    const d = mkdtempSync(join(tmpdir(), 'dumpsleuth-many-'));
    copyFileSync(DUMP, join(d, 'dump-1.txt'));
    for (let k = 1; k <= 50; k++) writeFileSync(join(d, `note-${String(k).padStart(2, '0')}.txt`), `note ${k}\n`);
    const r = runBuiltCli(['analyze', '--fail-on', 'never', d]);
    expect(r.code).toBe(0);
    const notes = r.stderr.split('\n').filter((l) => l.startsWith('note: '));
    expect(notes).toHaveLength(21);
    expect(notes[20]).toBe('note: 30 more files were skipped');
  });
});
