/**
 * Big inputs: a dump made of a real one repeated thousands of times (same lock addresses in every
 * copy, thousands of read-write-lock writers) gives results, and a machine without the memory for it
 * gets a message saying what to do instead of V8's out-of-memory abort. How fast is bench/'s to say
 * (a bound here would fail on a loaded machine); the test timeout catches a hang.
 */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { runBuiltCli, scratchDir } from '../helpers.js';
import { analyseFile } from './harness.js';

/** The deadlock fixture's threads repeated until `bytes`, each copy's threads renamed and renumbered. */
function repeatedDump(bytes: number): string {
  const text = readFileSync('fixtures/threads/deadlock/dump-1.txt', 'utf8');
  const start = text.indexOf('\n"') + 1;
  const end = text.includes('JNI global') ? text.indexOf('JNI global') : text.length;
  const body = text.slice(start, end);
  const path = join(scratchDir('big'), 'big.txt');
  const fd = openSync(path, 'w');
  writeSync(fd, 'Full thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode):\n\n');
  for (let size = 0, copy = 0; size < bytes; copy++) {
    const renamed = body.replace(/^"([^"]*)" #(\d+)/gm, (_m, name: string, id: string) => `"${name}-${copy}" #${Number(id) + copy * 1000}`);
    writeSync(fd, renamed);
    size += renamed.length;
  }
  closeSync(fd);
  return path;
}

describe('big inputs', { timeout: 300_000 }, () => {
  // Thousands of copies are what made the work quadratic (before the fix: 5.7 s for 20 MB, 80 s for
  // 80 MB); 8 MB holds about 800 copies of the fixture, enough for every path that handles them.
  it('8 MB of repeated deadlocks and read-write-lock writers: results', async () => {
    const r = await analyseFile(repeatedDump(8e6));
    expect(r.kind).toBe('results');
  });

  it('too little memory for the input: exit 2 and what to do, not an out-of-memory abort', () => {
    // A heap limit is the process's: the built CLI in a process of its own.
    const path = repeatedDump(40e6);
    // Half of what the input needs, so the outcome does not hang on when the collector runs: with
    // 80 MB, a run of the whole suite on 2 busy cores once finished the analysis (exit 1).
    const r = runBuiltCli(['analyze', path], { nodeArgs: ['--max-old-space-size=40'] });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not enough memory to hold what this input holds/);
    expect(r.stderr).toMatch(/--max-old-space-size=\d+/);
    expect(r.stderr).not.toMatch(/FATAL ERROR|heap out of memory/);
  });
});
