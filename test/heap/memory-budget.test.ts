/**
 * The memory the analysis of a dump is expected to take, told before it starts: lower where the
 * dominator tree can set the graph's columns aside in a temporary file (big dumps), higher where it
 * cannot (no temporary folder takes a file), so a machine is never promised what it cannot give.
 */
import { afterEach, describe, expect, test } from 'vitest';

import { doesNotFit } from '../../src/analysis/memory-budget.js';

const MiB = 2 ** 20;
const GiB = 2 ** 30;
const savedTmp = process.env['TMPDIR'];

afterEach(() => {
  if (savedTmp === undefined) delete process.env['TMPDIR'];
  else process.env['TMPDIR'] = savedTmp;
});

describe('doesNotFit', () => {
  test('a 2 GiB dump: about 2 GiB with its columns set aside, about 2.6 GiB without', () => {
    const limit = { bytes: 2.3 * GiB, what: '--max-memory 2.3 GiB' };
    expect(doesNotFit(2 * GiB, limit)).toBeUndefined();
    process.env['TMPDIR'] = '/nonexistent/dumpsleuth-test';
    expect(doesNotFit(2 * GiB, limit)).toMatch(/^it needs about 2\.6 GiB for a heap dump of about 2\.0 GiB, more than --max-memory 2\.3 GiB$/);
  });

  test('a small dump is counted as held in memory (no columns set aside), with what the process holds before', () => {
    // 200 MiB before it starts, and 1.2 bytes a byte of HPROF.
    const needed = 200 * MiB + 100 * MiB * 1.2;
    expect(doesNotFit(100 * MiB, { bytes: needed + MiB, what: 'x' })).toBeUndefined();
    expect(doesNotFit(100 * MiB, { bytes: needed - MiB, what: 'x' })).toMatch(/needs about 320\.0 MiB/);
  });
});
