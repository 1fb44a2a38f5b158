/**
 * Nothing lost silently: where a dump declares how many threads it holds (HotSpot's SMR list, a
 * javacore's live-thread count), the count read is reconciled with it, and a difference is a
 * warning in every output format.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { loadThreadInput } from '../../src/analysis/load-threads.js';
import { REPORT_FORMATS } from '../../src/report/renderers.js';
import { TextDumpParser } from '../../src/threads/text-parser.js';
import { CORPUS, corpusAvailable, MINIMAL_JAVACORE, runCli, scratchDir } from '../helpers.js';
import { analyseFile } from './harness.js';

const FIXTURE = 'fixtures/threads/deadlock/dump-1.txt';

/** The fixture with one Java thread's block cut out, as a damaged copy would lose it. */
function withOneThreadCut(): string {
  const text = readFileSync(FIXTURE, 'utf8');
  const start = text.indexOf('\n"Finalizer" #');
  const end = text.indexOf('\n"', start + 2);
  expect(start).toBeGreaterThan(0);
  return text.slice(0, start) + text.slice(end);
}

describe('thread counts reconciled with what the dump declares', { timeout: 120_000 }, () => {
  it('an intact real dump: no warning (the SMR length matches)', async () => {
    const loaded = await loadThreadInput(FIXTURE);
    expect(loaded.file.dumps[0]!.declaredThreads?.count).toBeGreaterThan(5);
    expect(loaded.file.warnings.filter((w) => /declares/.test(w))).toEqual([]);
  });

  it('one thread lost: a warning naming both counts, in every format', async () => {
    const dir = scratchDir('lost');
    const file = join(dir, 'dump.txt');
    writeFileSync(file, withOneThreadCut());
    const declared = (await loadThreadInput(FIXTURE)).file.dumps[0]!.declaredThreads!.count;
    const expected = `declares ${declared} Java threads, ${declared - 1} were read (1 missing`;
    const outcome = await analyseFile(file);
    expect(outcome.kind).toBe('results');
    if (outcome.kind === 'results') expect(outcome.warnings.join('\n')).toContain(expected);
    for (const format of REPORT_FORMATS) {
      const r = await runCli(['analyze', '--fail-on', 'never', '-f', format, file]);
      expect(r.code, format).toBe(0);
      expect(r.stdout, format).toContain(expected);
    }
  });

  it.skipIf(!corpusAvailable)('a javacore whose author kept 2 of 66 threads is flagged; a whole one is not', async () => {
    const cut = await loadThreadInput(join(CORPUS, 'IBM__ThreadDumpFlameGrapher', 'javacore.withrawStateValue.txt'));
    expect(cut.file.warnings.join('\n')).toMatch(/declares 66 Java threads, 2 were read/);
    const whole = await loadThreadInput(join(CORPUS, 'eclipse-mat__mat', 'javacore.20130429.083110.14261.0002.txt'));
    expect(whole.file.dumps[0]!.declaredThreads?.count).toBe(17);
    expect(whole.file.warnings.filter((w) => /declares/.test(w))).toEqual([]);
  });

  it('a jcmd JSON dump missing a thread its container counts: a warning', async () => {
    const doc = JSON.parse(readFileSync('fixtures/threads/deadlock/jdk25-threads.json', 'utf8'));
    const container = doc.threadDump.threadContainers.find((c: { threads: unknown[] }) => c.threads.length > 1);
    container.threads.pop();
    const dir = scratchDir('lost-json');
    const file = join(dir, 'threads.json');
    writeFileSync(file, JSON.stringify(doc));
    const loaded = await loadThreadInput(file);
    const total = doc.threadDump.threadContainers.reduce((n: number, c: { threadCount: string }) => n + Number(c.threadCount), 0);
    expect(loaded.file.warnings.join('\n')).toContain(`threadCount declares ${total} threads, ${total - 1} were read`);
    const intact = await loadThreadInput('fixtures/threads/deadlock/jdk25-threads.json');
    expect(intact.file.warnings).toEqual([]);
  });

  it('a jcmd JSON document with its "threadDump" key twice: two dumps, not one merged, with a warning', async () => {
    const doc = JSON.parse(readFileSync('fixtures/threads/deadlock/jdk25-threads.json', 'utf8'));
    const one = JSON.stringify(doc.threadDump);
    const other = JSON.stringify({ ...doc.threadDump, time: '2026-11-30T09:31:38.000Z' });
    const dir = scratchDir('dup-key');
    const file = join(dir, 'threads.json');
    writeFileSync(file, `{"threadDump": ${one}, "threadDump": ${other}}`);
    const loaded = await loadThreadInput(file);
    const intact = await loadThreadInput('fixtures/threads/deadlock/jdk25-threads.json');
    expect(loaded.file.dumps.map((d) => d.threads.length)).toEqual([intact.file.dumps[0]!.threads.length, intact.file.dumps[0]!.threads.length]);
    expect(loaded.file.warnings.join('\n')).toContain('the JSON holds 2 "threadDump" objects under one key (a repeated key)');
  });

  it('a jstack dump and a javacore in one file: whichever is not read is said, in both orders', async () => {
    const jstack = readFileSync('fixtures/threads/deadlock/dump-1.txt', 'utf8');
    const dir = scratchDir('mixed');
    writeFileSync(join(dir, 'mixed.txt'), MINIMAL_JAVACORE + jstack);
    // The file is read as what its head shows (here the javacore); the other is said.
    const loaded = await loadThreadInput(join(dir, 'mixed.txt'));
    expect(loaded.file.warnings.join('\n')).toMatch(/line 7: the file also holds a HotSpot thread dump, which was not read with the javacore/);
    // A HotSpot reader meeting a javacore after its dumps says so too.
    const text = new TextDumpParser('mixed.txt');
    text.pushText(jstack + '\n' + MINIMAL_JAVACORE);
    expect(text.finish().warnings.join('\n')).toMatch(/the file also holds an IBM javacore, which was not read with the HotSpot dumps/);
  });
});
