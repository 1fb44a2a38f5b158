/**
 * Inputs that are not regular files: a device has no end (refused at once, exit 2, one line), a named
 * pipe is read once like stdin (its head is not read twice), and a terminal on stdin is refused
 * instead of waiting without a word.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, closeSync, copyFileSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { BUILT_CLI, FIXTURES, runBuiltCli, scratchDir } from '../helpers.js';

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
    const d = scratchDir('fifo');
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

  it('600 MB of zero bytes between two dumps (a sparse file) are dropped with a warning, and the dumps around them are read', () => {
    const d = scratchDir('long-line');
    const file = join(d, 'dump-long-line.log');
    const dump = readFileSync(DUMP);
    // 600 MB of zero bytes (a hole in a sparse file: nothing written), once one line past V8's longest
    // string (about 512 MB), which ended in "Invalid string length", exit 70. NUL characters are no
    // part of a dump: they are dropped and counted (a line of other characters past 64 Mi is cut: the
    // README's row, reproduced in test/cli/readme-errors.test.ts).
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
    expect(report.inputs[0]!.warnings.join('\n')).toMatch(/629145600 NUL characters were dropped from the text/);
  });

  // Root reads every file: the permission errors are seen only by an unprivileged user (nobody, through setpriv).
  // (Only where nobody can run the built CLI: a clone under a private home folder is not theirs to read.)
  const asNobody =
    process.getuid?.() === 0 &&
    spawnSync('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', process.execPath, BUILT_CLI, '--version']).status === 0;
  it.skipIf(!asNobody)('what may not be read is exit 2 naming the path, or a note inside an incident, never an internal error', () => {
    const d = scratchDir('perm');
    chmodSync(d, 0o755);
    const file = (name: string, mode: number) => (copyFileSync(DUMP, join(d, name)), chmodSync(join(d, name), mode), join(d, name));
    const folder = (name: string, mode: number) => (mkdirSync(join(d, name)), chmodSync(join(d, name), mode), join(d, name));
    const secret = file('secret.txt', 0);
    const closed = folder('closed', 0);
    const incident = folder('incident', 0o755);
    copyFileSync(DUMP, join(incident, 'dump-1.txt'));
    copyFileSync(DUMP, join(incident, 'dump-2.txt'));
    chmodSync(join(incident, 'dump-2.txt'), 0);
    mkdirSync(join(incident, 'sub'), { mode: 0 });
    const run = (...args: string[]) =>
      spawnSync('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', process.execPath, BUILT_CLI, ...args], { encoding: 'utf8', cwd: d });
    for (const args of [
      ['analyze', secret],
      ['histogram', secret],
      ['memory', secret],
      ['analyze', closed],
    ]) {
      const r = run(...args);
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^error: cannot read (the folder )?${args[1]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: permission denied`));
    }
    const inIncident = run('analyze', '--fail-on', 'never', incident);
    expect(inIncident.status, inIncident.stderr).toBe(0);
    expect(inIncident.stderr).toMatch(/note: skipped \S+dump-2\.txt: cannot read \S+: permission denied/);
    expect(inIncident.stderr).toMatch(/note: skipped \S+sub: cannot read the folder: permission denied/);
    const batch = run('batch', '--fail-on', 'never', incident, closed);
    expect(batch.status).toBe(2);
    const lines = batch.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { status: string; error?: string; skipped?: string[] });
    expect(lines[0]!.status).toBe('ok');
    expect(lines[0]!.skipped?.join('\n')).toMatch(/dump-2\.txt: cannot read .*permission denied/);
    expect(lines[0]!.skipped?.join('\n')).toMatch(/sub: cannot read the folder: permission denied/);
    expect(lines[1]!.error).toMatch(/^cannot read the folder \S+closed: permission denied$/);
    expect(`${inIncident.stderr}${batch.stdout}${batch.stderr}`).not.toMatch(/internal error/);
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
    const d = scratchDir('many');
    copyFileSync(DUMP, join(d, 'dump-1.txt'));
    for (let k = 1; k <= 50; k++) writeFileSync(join(d, `note-${String(k).padStart(2, '0')}.txt`), `note ${k}\n`);
    const r = runBuiltCli(['analyze', '--fail-on', 'never', d]);
    expect(r.code).toBe(0);
    const notes = r.stderr.split('\n').filter((l) => l.startsWith('note: '));
    expect(notes).toHaveLength(21);
    expect(notes[20]).toBe('note: 30 more files were skipped');
  });
});
