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
  timestamps: Array<string | null>;
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

/** SOURCES.md's heuristic `threads / dumps` column, read from the corpus itself. */
function sourcesMdCounts(): Map<string, { threads: number; dumps: number }> {
  const counts = new Map<string, { threads: number; dumps: number }>();
  if (!corpusAvailable) return counts;
  for (const row of readFileSync(join(CORPUS, 'SOURCES.md'), 'utf8').split('\n')) {
    const m = /^\| `([^`]+)` \|.*\| (\d+) \/ (\d+) \|/.exec(row);
    if (m) counts.set(m[1]!, { threads: Number(m[2]), dumps: Number(m[3]) });
  }
  return counts;
}
const sourcesMd = sourcesMdCounts();

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
      expect(parsed.dumps.map((d) => d.threads.length)).toEqual(want.threadsPerDump);
      expect(parsed.dumps.length).toBe(want.dumps);
    });
    if (want.timestamps.some((t) => t !== null)) {
      test('each dump gets the timestamp printed with it', async () => {
        const { file: parsed } = await load(path);
        want.timestamps.forEach((ts, i) => {
          if (ts === null) return;
          const got = parsed.dumps[i]?.timestamp ?? '';
          // hpdump.log's date is EUC-KR; read as UTF-8 only its ASCII part (the time) survives.
          if (/[^\x00-\x7f]/.test(ts)) expect(got).toContain(/\d{2}:\d{2}:\d{2}/.exec(ts)![0]);
          else expect(got).toBe(ts);
        });
      });
    }
    test('differs from SOURCES.md only where expected.json explains why', async () => {
      const listed = sourcesMd.get(file);
      expect(listed, 'SOURCES.md lists this file').toBeDefined();
      let threads = 0;
      let dumps = 0;
      if (want.format !== 'none') {
        const { file: parsed } = await load(path);
        dumps = parsed.dumps.length;
        threads = parsed.dumps.reduce((n, d) => n + d.threads.length, 0);
      }
      if (threads !== listed!.threads || dumps !== listed!.dumps) {
        expect(want.differenceExplained, `parsed ${threads}/${dumps}, SOURCES.md ${listed!.threads}/${listed!.dumps}`).toBeTruthy();
      }
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
