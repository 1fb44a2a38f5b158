/**
 * The memory the analysis of a dump is expected to take, told before it starts: lower where the
 * dominator tree can set the graph's columns aside in a temporary file (big dumps), higher where it
 * cannot (no temporary folder takes a file), so a machine is never promised what it cannot give;
 * near or past the limit, from the dump's own counts of objects and references.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, describe, expect, test } from 'vitest';

import { hprofObjectGraph } from '../../src/heap/hprof/graph/hprof-graph.js';
import { hprofGraphCounts } from '../../src/heap/hprof/hprof-histogram.js';
import { doesNotFit, doesNotFitCounts, memoryFits, sizeTellsIt } from '../../src/heap/memory/budget.js';
import { runCli, scratchDir } from '../helpers.js';
import { chainHeap } from './hand-hprof.js';

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

describe('memoryFits: the one decision every command asks', () => {
  // 200 MiB for the process and 1.2 bytes a byte of a small dump (its columns stay in memory).
  const limit = { bytes: 1 * GiB, what: '--max-memory 1.0 GiB' };

  test('well under the limit, the size tells it fits, whether or not the caller could count', () => {
    expect(memoryFits(100 * MiB, limit, true)).toEqual({ fits: true });
    expect(memoryFits(100 * MiB, limit, false)).toEqual({ fits: true });
  });

  test('near or past the limit, a caller that can count counts first, whatever the size says', () => {
    expect(memoryFits(500 * MiB, limit, true)).toEqual({ fits: 'count-first' });
    expect(memoryFits(5 * GiB, limit, true)).toEqual({ fits: 'count-first' });
  });

  test('one that cannot count (an analysis riding on the load) is judged by the size: fits near the limit, refused past it, saying why', () => {
    expect(memoryFits(500 * MiB, limit, false)).toEqual({ fits: true });
    const past = memoryFits(GiB, limit, false);
    expect(past.fits).toBe(false);
    expect(past.fits === false ? past.why : '').toBe(doesNotFit(GiB, limit));
    expect(past.fits === false ? past.why : '').toMatch(/^it needs about [\d.]+ GiB for a heap dump of about 1\.0 GiB, more than --max-memory 1\.0 GiB$/);
  });
});

describe("counted: the objects and references of the graph, from the histogram's pass", () => {
  for (const heap of ['fixtures/heap/jdk17/heap.hprof.gz', 'fixtures/incidents/session-cache-leak/heap.hprof.gz']) {
    test(`${heap}: every object of the graph, and no fewer references than it has`, async () => {
      const [counts, g] = await Promise.all([hprofGraphCounts(heap), hprofObjectGraph(heap)]);
      expect(counts.objects).toBe(g.objects);
      // An upper bound: null fields and elements are counted, and left out of the graph.
      expect(counts.references).toBeGreaterThanOrEqual(g.edges.length);
      expect(counts.references).toBeLessThan(2 * g.edges.length);
    });
  }

  test('36 bytes an object and 4.4 a reference past the process, where the columns are set aside; 53 an object where not', () => {
    const counts = { objects: 40_000_000, references: 80_000_000 };
    const needed = 200 * MiB + 40_000_000 * 36 + 80_000_000 * 4.4;
    expect(doesNotFitCounts(counts, 2 * GiB, { bytes: needed + MiB, what: 'x' })).toBeUndefined();
    const tight = doesNotFitCounts(counts, 2 * GiB, { bytes: needed - MiB, what: 'the 1.8 GiB this machine has free' });
    expect(tight).toMatch(/^it needs about 1\.9 GiB for a heap dump of about 2\.0 GiB, more than the 1\.8 GiB this machine has free /);
    expect(tight).toMatch(/ \(its 40,000,000 objects and up to 80,000,000 references counted\)$/);
    process.env['TMPDIR'] = '/nonexistent/dumpsleuth-test';
    expect(doesNotFitCounts(counts, 2 * GiB, { bytes: needed + MiB, what: 'x' })).toMatch(/needs about 2\.5 GiB/);
  });

  test('the size tells it only well under the limit', () => {
    expect(sizeTellsIt(GiB, { bytes: 8 * GiB, what: 'x' })).toBe(true);
    expect(sizeTellsIt(5 * GiB, { bytes: 8 * GiB, what: 'x' })).toBe(false);
  });

  test('memory: a dump that its size says does not fit, but its counts do (it is mostly one byte array), is analysed', async () => {
    const heap = join(scratchDir('budget'), 'bytes.hprof');
    writeFileSync(heap, chainHeap([0x1000, 0x1010, 0x1020, 0x1030], 0, 40 * MiB));
    // The size says 200 MiB and 1.2 bytes a byte of 40 MiB: 248 MiB; its 6 objects need little past the 200.
    expect(doesNotFit(40 * MiB, { bytes: 230 * MiB, what: 'x' })).toBeDefined();
    const r = await runCli(['memory', '--format', 'json', '--max-memory', '230m', heap]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).heap.objects).toBe(6);
    // With less than the process alone: refused, with the counts.
    const refused = await runCli(['memory', '--max-memory', '150m', heap]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/more than --max-memory 150\.0 MiB \(its 6 objects and up to \d+ references counted\)/);
  });

  test('analyze: a big heap near the limit has its objects counted in its own analysis, and is analysed or reported not computed by them', async () => {
    // Past the size a heap's analysis rides on its load (48 MiB): it runs on its own, and counts first.
    const heap = join(scratchDir('budget'), 'bytes.hprof');
    writeFileSync(heap, chainHeap([0x1000, 0x1010, 0x1020, 0x1030], 0, 50 * MiB));
    expect(doesNotFit(50 * MiB, { bytes: 240 * MiB, what: 'x' })).toBeDefined();
    const roomy = JSON.parse((await runCli(['analyze', '--format', 'json', '--max-memory', '240m', heap])).stdout);
    expect(roomy.model.memory[0].heap.objects).toBe(6);
    const tight = JSON.parse((await runCli(['analyze', '--format', 'json', '--max-memory', '150m', heap])).stdout);
    const skipped: string = tight.model.memory[0].skipped;
    expect(skipped).toMatch(/^not computed: it needs about [\d.]+ MiB for a heap dump of about 50\.0 MiB, more than --max-memory 150\.0 MiB /);
    expect(skipped).toMatch(/ \(its 6 objects and up to \d+ references counted\) \(give --max-memory with more/);
  });
});
