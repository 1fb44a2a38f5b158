/**
 * Regressions: each input here once crashed dumpsleuth (found by the robustness properties or by
 * `npm run fuzz`, seed named). Each must now give results or a one-line refusal.
 */
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { extractToBuffer } from './extract-buffer.js';
import { analyseBytes } from './harness.js';

describe('regressions', { timeout: 120_000 }, () => {
  it('a ThreadInfo header cut after `Id` left a thread with no state; the renderers crashed (CI seed, truncate at 16)', async () => {
    const base = readFileSync('fixtures/threads/threadinfo/Dubbo_JStack.log');
    // 16 bytes (`"main" prio=5 Id`) are no evidence of a dump at all: refused, not a crash.
    expect((await analyseBytes(base.subarray(0, 16), 'cut.log')).kind).toBe('refused');
    // A whole thread, then a header cut after `Id`: a dump whose last thread has no state.
    const second = base.indexOf('"Reference Handler" daemon prio=10 Id');
    const r = await analyseBytes(base.subarray(0, second + '"Reference Handler" daemon prio=10 Id'.length), 'cut.log');
    expect(r.kind).toBe('results');
  });

  it('a damaged gzip log escaped as an internal error (CI seed, a byte run in the compressed data)', async () => {
    const { gzipSync } = await import('node:zlib');
    const gz = gzipSync(readFileSync('fixtures/incidents/active-count-leak/app.log'));
    gz.fill(0x41, 40, 200);
    const r = await analyseBytes(gz, 'app.log.gz');
    expect(['results', 'refused']).toContain(r.kind);
  });

  it('a thread header damaged by a long run of carriage returns took minutes in one regex (fuzz seed 6019)', async () => {
    const { parseThreadHeader } = await import('../../src/threads/thread-header.js');
    const damaged = `"worker-1" #12 prio=5 os_prio=0 tid=0x00007f0001 nid=0x2a waiting${'\r'.repeat(3000)}x=1`;
    // The old single regex backtracked cubically (about a minute for this line, 23 s for 2,000): that
    // it comes back at all is the check; how fast is bench/'s business, not a test's.
    const h = parseThreadHeader(damaged);
    // The damaged rest is not state words: the general parser takes it, and the ids are still read.
    expect(h?.javaId).toBe('12');
    expect(h?.nativeId).toBe('0x2a');
  });

  it('a heap snapshot whose histogram, thread list and class lists hold the wrong types (fuzz seed 2013)', async () => {
    const doc = JSON.parse((await extractToBuffer('fixtures/incidents/active-count-leak/heap.hprof.gz')).toString('utf8'));
    doc.histogram.warnings = 4;
    doc.histogram.rows.push(null, 7, { className: 3 }, { className: 'x', instances: 'many' });
    doc.header.threads = [null, 1, { objectId: 'x' }];
    doc.header.completeClasses = [1, null];
    doc.header.warnings = 'none';
    const r = await analyseBytes(Buffer.from(JSON.stringify(doc)), 'extract.json');
    expect(r.kind).toBe('results');
  });
});
