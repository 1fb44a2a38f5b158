/** `dumpsleuth memory` on inputs that are not a whole HPROF: refused in one line, or read with a warning. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

import { describe, expect, test } from 'vitest';

import { runCli, scratchDir } from '../helpers.js';

const dir = scratchDir('memory');

describe('dumpsleuth memory', { timeout: 60_000 }, () => {
  test('a heap dump cut before its root records: objects nothing references stand for the roots, with warnings', async () => {
    const heap = gunzipSync(readFileSync('fixtures/incidents/active-count-leak/heap.hprof.gz'));
    const cut = join(dir, 'cut.hprof');
    writeFileSync(cut, heap.subarray(0, Math.floor(heap.length * 0.75)));
    const r = await runCli(['memory', '-f', 'json', cut]);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.heap.reachableObjects).toBeGreaterThan(doc.heap.objects / 2);
    expect(doc.heap.roots.unreferenced).toBeGreaterThan(0);
    expect(doc.warnings.join('\n')).toMatch(/the heap dump ends in the middle of a record/);
    expect(doc.warnings.join('\n')).toMatch(/no GC root records: the \d+ objects nothing references were taken as the roots/);
    expect(r.stderr).toMatch(/^warning: /m);
  });

  test('a whole heap dump has its roots and no such warning', async () => {
    const doc = JSON.parse((await runCli(['memory', '-f', 'json', 'fixtures/incidents/active-count-leak/heap.hprof.gz'])).stdout);
    expect(doc.heap.roots.unreferenced).toBeUndefined();
    expect(doc.heap.roots.thread).toBeGreaterThan(0);
    expect(doc.warnings).toEqual([]);
  });

  test('a malformed V8 snapshot, an extract, or text: exit 2 with one line', async () => {
    // Hand-written: a V8 header without the fields a snapshot has (a format edge case).
    writeFileSync(join(dir, 'x.heapsnapshot'), '{"snapshot":{"meta":{}}}');
    writeFileSync(join(dir, 'notes.txt'), 'hello\n');
    expect((await runCli(['extract', '-o', join(dir, 'extract.json'), 'fixtures/heap/jdk17/heap.hprof.gz'])).code).toBe(0);
    for (const [file, message] of [
      ['extract.json', /extract\.json is a dumpsleuth heap snapshot: it holds only the objects the analyses need/],
      ['x.heapsnapshot', /x\.heapsnapshot: the `snapshot` header has no `meta\.node_fields` list/],
      ['notes.txt', /is not a heap dump: it looks like a text file/],
    ] as const) {
      const r = await runCli(['memory', join(dir, file)]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
