/**
 * Where `-o` writes, and what a signal leaves behind: a symbolic link's target is replaced (not the
 * link), a hard link's other name shows the new report, a device or a FIFO is written through (never
 * replaced by a file), a full disk is one line and exit 2 (with `-o` and on stdout), and a signal
 * during the run removes every temporary file and ends with 128 + its number.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, linkSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { BUILT_CLI, FIXTURES, runBuiltCli, scratchDir } from '../helpers.js';

const DUMP = join(FIXTURES, 'deadlock', 'dump-1.txt');
const scratch = () => scratchDir('out');
const analyzeTo = (target: string) => runBuiltCli(['analyze', '--fail-on', 'never', DUMP, '-o', target]);
const leftovers = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.part'));

describe('-o onto what is not a plain file', { timeout: 120_000 }, () => {
  it('a symbolic link: its target gets the report, the link stays a link', () => {
    const d = scratch();
    writeFileSync(join(d, 'real.txt'), 'old');
    symlinkSync('real.txt', join(d, 'link.txt'));
    expect(analyzeTo(join(d, 'link.txt')).code).toBe(0);
    expect(lstatSync(join(d, 'link.txt')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(d, 'real.txt'), 'utf8')).toMatch(/^dumpsleuth /);
    expect(leftovers(d)).toEqual([]);
  });

  it('a file with two names: both show the new report', () => {
    const d = scratch();
    writeFileSync(join(d, 'a.txt'), 'old');
    linkSync(join(d, 'a.txt'), join(d, 'b.txt'));
    expect(analyzeTo(join(d, 'a.txt')).code).toBe(0);
    expect(readFileSync(join(d, 'b.txt'), 'utf8')).toMatch(/^dumpsleuth /);
    expect(statSync(join(d, 'a.txt')).nlink).toBe(2);
  });

  it('a device is written through, never replaced', () => {
    expect(analyzeTo('/dev/null').code).toBe(0);
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
  });

  it("a FIFO's reader gets the report", async () => {
    const d = scratch();
    const fifo = join(d, 'report.fifo');
    if (spawnSync('mkfifo', [fifo]).status !== 0) return; // no mkfifo on this system
    const reader = spawn('cat', [fifo]);
    let got = '';
    reader.stdout.on('data', (b: Buffer) => (got += b.toString()));
    const done = new Promise((resolve) => reader.on('close', resolve));
    expect(analyzeTo(fifo).code).toBe(0);
    await done;
    expect(got).toMatch(/^dumpsleuth /);
  });

  it('a full disk: one line and exit 2, with -o and on stdout', () => {
    if (!existsSync('/dev/full')) return;
    const r = analyzeTo('/dev/full');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: could not write \/dev\/full: the disk is full/);
    const s = spawnSync(
      'sh',
      ['-c', `${JSON.stringify(process.execPath)} ${JSON.stringify(BUILT_CLI)} analyze --fail-on never ${JSON.stringify(DUMP)} > /dev/full`],
      {
        encoding: 'utf8',
      },
    );
    expect(s.status).toBe(2);
    expect(s.stderr).toMatch(/^error: could not write the report to standard output: the disk is full/);
    expect(s.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('a signal during the run', { timeout: 120_000 }, () => {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    it(`${signal} removes the copy of stdin and ends with ${code}`, async () => {
      const tmp = scratch();
      const child = spawn(process.execPath, [BUILT_CLI, 'analyze', '--fail-on', 'never', '-'], { env: { ...process.env, TMPDIR: tmp } });
      // Half a dump, and stdin left open: the run waits in the copy of stdin.
      child.stdin.write(readFileSync(DUMP, 'utf8').slice(0, 2000));
      await new Promise((r) => setTimeout(r, 1500));
      expect(readdirSync(tmp).length, 'the copy of stdin exists while it is read').toBeGreaterThan(0);
      const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
      child.kill(signal);
      expect(await exited).toBe(code);
      expect(readdirSync(tmp)).toEqual([]);
    });
  }
});
