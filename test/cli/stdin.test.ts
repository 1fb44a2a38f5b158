/** `-` reads stdin for every kind of input a command reads; heap dumps are copied to a temporary file first and it is removed. */
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

import { describe, expect, test } from 'vitest';

import { runBuiltCli, runCli, scratchDir } from '../helpers.js';

const HEAP_GZ = readFileSync('fixtures/incidents/active-count-leak/heap.hprof.gz');
const HEAP = gunzipSync(HEAP_GZ);
const spoolDirs = () =>
  readdirSync(tmpdir())
    .filter((n) => n.startsWith('dumpsleuth-stdin-'))
    .sort();

describe('a heap dump on stdin', { timeout: 60_000 }, () => {
  test('analyze - reads a gzip HPROF from stdin as a heap, named -', async () => {
    const before = spoolDirs();
    const r = runBuiltCli(['analyze', '--format', 'json', '--fail-on', 'never', '-'], { input: HEAP_GZ });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.inputs).toHaveLength(1);
    expect(doc.inputs[0]).toMatchObject({ path: '-', kind: 'heap', format: 'hprof' });
    // The same diagnosis as from the file.
    const fromFile = JSON.parse(
      (await runCli(['analyze', '--format', 'json', '--fail-on', 'never', 'fixtures/incidents/active-count-leak/heap.hprof.gz'])).stdout,
    );
    expect(doc.findings.map((f: { rule: string }) => f.rule)).toEqual(fromFile.findings.map((f: { rule: string }) => f.rule));
    expect(spoolDirs()).toEqual(before);
  });

  test('histogram - reads a plain HPROF from stdin, with the same figures as from the file', async () => {
    const r = runBuiltCli(['histogram', '--format', 'json', '-'], { input: HEAP });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    const fromFile = JSON.parse((await runCli(['histogram', '--format', 'json', 'fixtures/incidents/active-count-leak/heap.hprof.gz'])).stdout);
    expect(doc.source).toBe('-');
    expect(doc.totalInstances).toBe(fromFile.totalInstances);
    expect(doc.totalBytes).toBe(fromFile.totalBytes);
  });

  test('extract - writes the snapshot with its source named -', async () => {
    const out = join(scratchDir('stdin-test'), 'x.json');
    const r = runBuiltCli(['extract', '-', '-o', out], { input: HEAP_GZ });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/"header":\{"source":"-"/);
  });

  test('text that is not a heap dump on histogram - is one clear line naming -', async () => {
    const r = runBuiltCli(['histogram', '-'], { input: 'hello\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: - is not a heap dump: it looks like a text file/);
    expect(r.stderr).not.toMatch(/dumpsleuth-stdin-|\n\s+at /);
  });

  test('a thread dump on stdin still works', async () => {
    const dump = runBuiltCli(['analyze', '--format', 'json', '--fail-on', 'never', '-'], { input: readFileSync('fixtures/threads/deadlock/dump-1.txt') });
    expect(JSON.parse(dump.stdout).inputs[0]).toMatchObject({ path: '-', kind: 'threads', threads: 30 });
  });
});
