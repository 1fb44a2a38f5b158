/**
 * The checks a capture step's file must pass before the step counts as taken (src/capture/check-output.ts):
 * a real heap dump (plain and gzip) passes; a missing, empty, cut-before-its-header or other file
 * fails with its reason; the lines jcmd prints while exiting 0 on a failed dump are seen, its
 * success lines are not.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

import { describe, expect, it } from 'vitest';

import { heapFileProblem, jsonThreadDumpProblem, threadDumpTextProblem, toolSaysFailed } from '../../src/capture/check-output.js';
import { scratchDir } from '../helpers.js';

const dir = scratchDir('check-output');
const at = (name: string, bytes: string | Buffer) => (writeFileSync(join(dir, name), bytes), join(dir, name));
// A heap dump a real JVM wrote (fixtures/generate-heap.sh), gzip as jcmd -gz writes one, and inflated.
const gz = readFileSync('fixtures/heap/jdk17/heap.hprof.gz');

describe('what a capture step wrote', () => {
  it('a heap dump, gzip or plain, passes', async () => {
    expect(await heapFileProblem(at('heap.hprof.gz', gz))).toBeUndefined();
    expect(await heapFileProblem(at('heap.hprof', gunzipSync(gz)))).toBeUndefined();
  });

  it('a missing, empty or foreign file fails, saying which', async () => {
    expect(await heapFileProblem(join(dir, 'none.hprof.gz'))).toMatch(/none\.hprof\.gz was not written$/);
    expect(await heapFileProblem(at('empty.hprof.gz', ''))).toMatch(/empty\.hprof\.gz is empty$/);
    expect(await heapFileProblem(at('text.hprof', 'Heap dump file created\n'))).toMatch(/does not start with an HPROF header \(/);
    expect(await heapFileProblem(at('text.hprof.gz', gzipSync('not a heap')))).toMatch(/does not start with an HPROF header once inflated/);
    // gzip cut inside its first block: nothing inflates, so no header.
    expect(await heapFileProblem(at('cut.hprof.gz', gz.subarray(0, 12)))).toMatch(/HPROF header once inflated/);
  });

  it('a heap dump cut within its header (the magic and nothing a reader can use) fails; control: the whole header passes', async () => {
    const plain = gunzipSync(gz);
    expect(await heapFileProblem(at('magic-only.hprof', plain.subarray(0, 21)))).toMatch(/ends within its HPROF header/);
    expect(await heapFileProblem(at('magic-only.hprof.gz', gzipSync(plain.subarray(0, 30))))).toMatch(/ends within its HPROF header.* once inflated/);
    expect(await heapFileProblem(at('header.hprof', plain.subarray(0, 31)))).toBeUndefined();
  });

  it('a gzip heap dump cut after its header still starts as one (its analysis says where it ends)', async () => {
    expect(await heapFileProblem(at('tail-cut.hprof.gz', gz.subarray(0, Math.floor(gz.length / 2))))).toBeUndefined();
  });

  it("jcmd's failure lines while it exits 0 are seen; its success lines are not", () => {
    expect(toolSaysFailed('1234:\nDumping heap to rel/heap.hprof.gz ...\nUnable to create rel/heap.hprof.gz: No such file or directory\n')).toBe(
      'Unable to create rel/heap.hprof.gz: No such file or directory',
    );
    expect(toolSaysFailed('1234:\nDumping heap to /x/h.hprof.gz ...\nDump file is incomplete: File too large\n')).toBe(
      'Dump file is incomplete: File too large',
    );
    expect(toolSaysFailed('1234:\njava.nio.file.FileAlreadyExistsException: /x/threads-1.json\n')).toMatch(/FileAlreadyExistsException/);
    expect(toolSaysFailed('1234:\nDumping heap to /x/h.hprof.gz ...\nHeap dump file created [1191506 bytes in 0.026 secs]\n')).toBeUndefined();
    expect(toolSaysFailed('1234:\nCreated /x/threads-1.json\n')).toBeUndefined();
    // The path the tool echoes is no failure, whatever its folder is called; a failure naming it still is.
    const odd = '/srv/Exceptions/Error: dumps/h.hprof.gz';
    expect(toolSaysFailed(`1234:\nDumping heap to ${odd} ...\nHeap dump file created [1191506 bytes in 0.026 secs]\n`, odd)).toBeUndefined();
    expect(toolSaysFailed(`1234:\nDumping heap to ${odd} ...\nHeap dump file created [1191506 bytes in 0.026 secs]\n`)).toBeDefined();
    expect(toolSaysFailed(`1234:\nUnable to create ${odd}: No such file or directory\n`, odd)).toBe(`Unable to create ${odd}: No such file or directory`);
  });

  it('a thread dump carries its banner; a JSON thread dump opens with threadDump', () => {
    expect(threadDumpTextProblem('2026-12-01 10:00:00\nFull thread dump OpenJDK 64-Bit Server VM (17.0.13+11 mixed mode):\n')).toBeUndefined();
    expect(threadDumpTextProblem('')).toBe('the tool printed nothing');
    expect(threadDumpTextProblem('Exception in thread "main" java.io.IOException: No such process\n')).toMatch(
      /no "Full thread dump" banner; first line: "Exception/,
    );
    expect(jsonThreadDumpProblem(at('t.json', '{\n  "threadDump": {\n    "processId": "1"'))).toBeUndefined();
    expect(jsonThreadDumpProblem(at('other.json', '{"threads": []}'))).toMatch(/is not a JSON thread dump/);
    expect(jsonThreadDumpProblem(at('empty.json', ''))).toMatch(/is empty$/);
  });
});
