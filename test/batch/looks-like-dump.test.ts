/**
 * Batch sorts a folder's files by asking identify, the answer the analysis routes on: a file is an
 * incident of its own exactly when analyze reads it as a dump. Batch once sniffed on its own (a parse
 * of the head, without the line prefixes the analysis learns), and disagreed with analyze on a
 * journald log holding `kill -3` output: analyze read its threads, batch skipped it as no dump.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { analysisPlan, loadAnyInput } from '../../src/analysis/load-incident.js';
import { looksLikeDump } from '../../src/batch/looks-like-dump.js';
import { incidentsOf } from '../../src/commands/batch.js';
import { InputError } from '../../src/errors.js';
import { FIXTURES, scratchDir } from '../helpers.js';

const JOURNALD = join(FIXTURES, 'prefixed', 'kill3-journald-short.log');

async function analyzeReads(path: string): Promise<string> {
  try {
    return (await loadAnyInput(path, analysisPlan([]))).kind;
  } catch (e) {
    if (e instanceof InputError) return 'refused';
    throw e;
  }
}

describe('batch and analyze give one answer', { timeout: 60_000 }, () => {
  it('a journald log with a thread dump in it: a dump to both (batch once skipped it)', async () => {
    expect(await analyzeReads(JOURNALD)).toBe('threads');
    expect(await looksLikeDump(JOURNALD)).toBe(true);
  });

  it('so a folder of incidents lists it as an incident of its own, not as skipped', async () => {
    const folder = scratchDir('batch-sort');
    for (const d of ['incident-a', 'incident-b']) mkdirSync(join(folder, d));
    copyFileSync(JOURNALD, join(folder, 'node-3.log'));
    copyFileSync(join('fixtures', 'README.md'), join(folder, 'README.md'));
    const { incidents, skipped } = await incidentsOf([folder]);
    expect(incidents.map((p) => p.slice(folder.length + 1))).toEqual(['incident-a', 'incident-b', 'node-3.log']);
    expect(skipped.map((p) => p.slice(folder.length + 1))).toEqual(['README.md']);
  });

  it.each([
    ['a plain jstack dump', join(FIXTURES, 'deadlock', 'dump-1.txt'), true],
    ['an HPROF heap dump', join('fixtures', 'heap', 'jdk17', 'heap.hprof.gz'), true],
    ['a log with no dump in it', join('fixtures', 'incidents', 'draining-pool', 'app.log'), false],
    ['notes', join('fixtures', 'README.md'), false],
    ['a class histogram', join('fixtures', 'heap', 'jdk17', 'histo-live.txt'), false],
    // Negative control: a heap dump, but of Node.js: analyze refuses it, so it is no incident.
    ['a V8 heap snapshot', join('fixtures', 'heap-v8', 'markers.heapsnapshot.gz'), false],
  ])('%s: batch says what analyze does', async (_name, path, dump) => {
    expect(await looksLikeDump(path)).toBe(dump);
    const read = await analyzeReads(path);
    if (dump) expect(['threads', 'heap']).toContain(read);
    else expect(['log', 'refused']).toContain(read);
  });
});
