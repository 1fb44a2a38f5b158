/**
 * `npm test` runs the suites in process; the suites that start other processes are the `processes`
 * project (vitest.config.ts), run by `npm run test:processes` and by CI. A test file that starts a
 * process but is not listed there would make `npm test` slow again, unnoticed: this finds it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import { describe, expect, it } from 'vitest';

import { PROCESS_SUITES } from '../vitest.config.js';

const ROOT = join(import.meta.dirname, '..');

/** What starts a process in a test: child_process, the built CLI (directly or through a helper), the fuzz harness, a browser, tmux. */
const STARTS_A_PROCESS = /\bspawnSync\(|\bspawn\(|\bexecFileSync\(|\bexecFile\(|\brunBuiltCli\(|\bBUILT_CLI\b|from '\.\/cli-fuzz\.js'|chromium|tmux/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return testFiles(path);
    return /\.test\.tsx?$/.test(e.name) ? [relative(ROOT, path)] : [];
  });
}

/** The globs of the config (`**` any folders, `*` any name part) as one expression. */
function globMatcher(globs: readonly string[]): RegExp {
  const one = (g: string) =>
    g
      .split('/')
      .map((part) => (part === '**' ? '(?:[^/]+/)*' : part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*') + '/'))
      .join('')
      .slice(0, -1);
  return new RegExp(`^(?:${globs.map(one).join('|')})$`);
}

describe('the split of the suites', () => {
  const inProcesses = globMatcher(PROCESS_SUITES);
  const files = testFiles(join(ROOT, 'test'));

  it('every test file that starts a process is in the processes project', () => {
    // This file names what it looks for, and starts nothing.
    const starting = files.filter((f) => f !== 'test/suite-split.test.ts' && STARTS_A_PROCESS.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(starting.length).toBeGreaterThan(10);
    expect(starting.filter((f) => !inProcesses.test(f))).toEqual([]);
  });

  it('the matcher reads the globs as vitest does: a listed file, a folder of files, and not a file beside them', () => {
    expect(inProcesses.test('test/cli/batch.test.ts')).toBe(true);
    expect(inProcesses.test('test/package/pack-install.test.ts')).toBe(true);
    expect(inProcesses.test('test/capture/capture.test.ts')).toBe(true);
    expect(inProcesses.test('test/capture/proc-cpu.test.ts')).toBe(false);
    expect(inProcesses.test('test/threads/text-parser.test.ts')).toBe(false);
  });
});
