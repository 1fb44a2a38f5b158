/**
 * Issue 46 (seeded fuzzing): a real dump with a NUL character every 100 lines, or with CR LF, LF and
 * lone CR line ends mixed in one file, lost threads with no warning. Every thread of the original is
 * read from the altered copy, by name; the NULs are counted in a warning; the line ends need none
 * (nothing is lost). mendText is also fed in chunks cut at every place, a CR LF split between two.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { loadThreadInput } from '../../src/analysis/load-threads.js';
import { mendText, type TextMends } from '../../src/input/open.js';
import { scratchDir } from '../helpers.js';

const DUMPS = ['fixtures/incidents/tomcat-stuck-requests/dump-1.txt', 'fixtures/threads/deadlock/dump-1.txt'];
const dir = scratchDir('mended');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const names = async (path: string) => {
  const { file } = await loadThreadInput(path);
  return {
    names: file.dumps.flatMap((d) => d.threads.map((t) => t.name)),
    unparsed: file.dumps.reduce((n, d) => n + d.unparsedCount, 0),
    warnings: file.warnings,
  };
};

function altered(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('a damaged copy of a real dump loses no thread', { timeout: 60_000 }, () => {
  for (const dump of DUMPS) {
    const lines = readFileSync(dump, 'utf8').split('\n');

    it(`${dump}: a NUL every 100 lines, and one in every thread header, at varying places`, async () => {
      const original = await names(dump);
      expect(original.warnings.filter((w) => /NUL/.test(w))).toEqual([]);
      let nuls = 0;
      const text = lines
        .map((l, i) => {
          if (i % 100 !== 7 && !l.startsWith('"')) return l;
          nuls++;
          const at = (i * 7) % (l.length + 1);
          return `${l.slice(0, at)}\0${l.slice(at)}`;
        })
        .join('\n');
      const read = await names(altered('nul.txt', text));
      expect(read.names).toEqual(original.names);
      expect(read.unparsed).toBe(original.unparsed);
      expect(read.warnings).toContain(
        `${nuls} NUL characters were dropped from the text (no dump writes one: the file may be damaged or written over); ` +
          'the lines they were in were read without them',
      );
    });

    it(`${dump}: CR LF, LF and a lone CR mixed in one file`, async () => {
      const original = await names(dump);
      const ends = ['\r\n', '\n', '\r', '\r', '\n', '\r\n', '\r'];
      const text = lines.map((l, i) => l + (i < lines.length - 1 ? ends[i % ends.length] : '')).join('');
      const read = await names(altered('mixed.txt', text));
      expect(read.names).toEqual(original.names);
      expect(read.unparsed).toBe(original.unparsed);
      expect(read.warnings).toEqual(original.warnings);
    });
  }
});

describe('mendText', () => {
  async function* pieces(text: string, cut: number) {
    yield text.slice(0, cut);
    yield text.slice(cut);
  }
  const mend = async (text: string, cut: number) => {
    const mends: TextMends = { nulsDropped: 0 };
    let out = '';
    for await (const chunk of mendText(pieces(text, cut), mends)) out += chunk;
    return { out, nuls: mends.nulsDropped };
  };

  it('gives the same text however the chunks are cut (a CR LF split between two included)', async () => {
    const text = 'a\r\nb\rc\nd\0e\r\r\nf\r';
    for (let cut = 0; cut <= text.length; cut++) expect(await mend(text, cut), `cut at ${cut}`).toEqual({ out: 'a\r\nb\nc\nde\n\r\nf\n', nuls: 1 });
  });

  it('control: a text of LF or CR LF lines is left as it is', async () => {
    for (const text of ['"main" #1\n\tat x.y\n', '"main" #1\r\n\tat x.y\r\n'])
      for (let cut = 0; cut <= text.length; cut++) expect(await mend(text, cut)).toEqual({ out: text, nuls: 0 });
  });
});
