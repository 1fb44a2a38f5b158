/**
 * Issue 46 (seeded fuzzing): `extract -o` whose file cannot be written ended in an unhandled promise
 * rejection and exit 1 (the snapshot writer's stream errors were left to themselves). Now it is the
 * one-line error and exit 2 every other write failure gets, and nothing is left behind. The failures
 * are real: a write past the process's file-size limit (`ulimit -f`, with SIGXFSZ ignored so the
 * write fails with EFBIG as a full disk fails with ENOSPC, midway), plain and gzip; and the copy a
 * FIFO target is written from, whose folder (TMPDIR) cannot hold it. The control: no limit, exit 0.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { BUILT_CLI, INCIDENTS, scratchDir } from '../helpers.js';

const HEAP = resolve(INCIDENTS, 'okhttp-dispatcher-queue', 'heap.hprof.gz');
const dir = scratchDir('extract-fail');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `extract HEAP -o out` under sh, after `setup` (a limit, a trap); exit code and stderr. */
function extractIn(out: string, setup: string, env: NodeJS.ProcessEnv = {}) {
  const command = `${setup} exec ${JSON.stringify(process.execPath)} ${JSON.stringify(BUILT_CLI)} extract ${JSON.stringify(HEAP)} -o ${JSON.stringify(out)}`;
  const r = spawnSync('sh', ['-c', command], { cwd: dir, env: { ...process.env, NO_COLOR: '1', ...env }, encoding: 'utf8' });
  return { code: r.status, stderr: r.stderr };
}

const oneLineError = (stderr: string) => {
  expect(stderr).not.toMatch(/Unhandled|triggerUncaughtException|\n\s+at .*:\d+:\d+/);
  expect(stderr.split('\n').filter((l) => l.startsWith('error: '))).toHaveLength(1);
};

describe('extract -o whose write fails', { timeout: 120_000 }, () => {
  for (const name of ['limited.json', 'limited.json.gz']) {
    it(`${name}: the file-size limit is reached midway: one line, exit 2, nothing left`, () => {
      // 16 blocks: the snapshot of this heap is some hundreds of KiB, gzip about 150 KiB.
      const r = extractIn(name, "trap '' XFSZ; ulimit -f 16;");
      expect(r.code, r.stderr).toBe(2);
      oneLineError(r.stderr);
      expect(r.stderr).toMatch(new RegExp(`^error: could not write ${name.replace(/\./g, '\\.')}: the file grew past the largest this process may write`));
      expect(existsSync(join(dir, name))).toBe(false);
      expect(readdirSync(dir).filter((f) => f.endsWith('.part'))).toEqual([]);
    });
  }

  it('a FIFO, whose whole copy cannot be made in TMPDIR: one line, exit 2', () => {
    const fifo = join(dir, 'fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const r = extractIn(fifo, '', { TMPDIR: join(dir, 'no-such-folder') });
    expect(r.code, r.stderr).toBe(2);
    oneLineError(r.stderr);
    expect(r.stderr).toMatch(/^error: could not write .*fifo: its copy could not be made in .*no-such-folder \(no such folder\)/);
  });

  it('control: without the limit the same extract is written, exit 0', () => {
    const r = extractIn('whole.json.gz', '');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^wrote whole\.json\.gz: /);
    expect(existsSync(join(dir, 'whole.json.gz'))).toBe(true);
  });
});
