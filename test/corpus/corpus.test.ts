/**
 * Every file of ../shared/corpus/threaddumps against an independent count (expected.json, made by
 * reading the files by hand and with greps, not with this parser) and against SOURCES.md's counts.
 * Skipped, loudly, when the corpus is not next to the repo.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { analyse, CORPUS, corpusAvailable, load } from '../helpers.js';

interface Expected {
  format: string;
  dumps: number;
  threads: number;
  threadsPerDump: number[];
  deadlocks: Array<{ dump: number; threads: string[]; reportedByJvm: boolean }>;
  sourcesMdSays: { threads: number; dumps: number };
  differenceExplained: string | null;
}

const expected: Record<string, Expected> = (
  JSON.parse(readFileSync(new URL('./expected.json', import.meta.url), 'utf8')) as { files: Record<string, Expected> }
).files;

if (!corpusAvailable) {
  test.skip(`corpus tests SKIPPED: ${CORPUS} does not exist next to this checkout`, () => {});
}

// Where this parser deliberately counts differently from the hand count, and why.
const DELIBERATE: Record<string, string> = {};

describe.runIf(corpusAvailable)('corpus', () => {
  describe.each(Object.keys(expected))('%s', (file) => {
    const want = expected[file]!;
    const path = join(CORPUS, file);
    test('parses without throwing, with the independent thread and dump counts', async () => {
      if (want.format === 'none') {
        await expect(load(path)).rejects.toThrow(/not a thread dump|no thread dump|neither/);
        return;
      }
      const { file: parsed } = await load(path);
      if (DELIBERATE[file]) return;
      expect(parsed.dumps.map((d) => d.threads.length)).toEqual(want.threadsPerDump);
      expect(parsed.dumps.length).toBe(want.dumps);
    });
    test('differs from SOURCES.md only where the difference is explained', () => {
      const same = want.sourcesMdSays.threads === want.threads && want.sourcesMdSays.dumps === want.dumps;
      if (!same) expect(want.differenceExplained, 'expected.json must say why SOURCES.md differs').toBeTruthy();
    });
    if (want.deadlocks.length > 0) {
      test('every deadlock yields a deadlock finding naming its threads', async () => {
        const { findings } = await analyse([path]);
        const found = findings.filter((f) => f.rule === 'deadlock').map((f) => [...(f.facts['threads'] as string[])].sort().join(' | '));
        for (const d of want.deadlocks) expect(found).toContain([...d.threads].sort().join(' | '));
      });
    }
  });
});
