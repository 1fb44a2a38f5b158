/**
 * The text parser's speed-ups (remembered frame lines and bodies, predicted frame lines, the header
 * fast path: TextDumpParser) over its section state machine (ThreadDumpSections) must not change
 * what a parse gives: every text thread dump of the fixtures and of the corpus, read by both.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { TextDumpParser } from '../../src/threads/text-parser.js';
import { ThreadDumpSections } from '../../src/threads/text-sections.js';
import { CORPUS, corpusAvailable, FIXTURES } from '../helpers.js';

function textFiles(dir: string, into: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) textFiles(path, into);
    else if (stat.size < 8 << 20 && !/\.(gz|zip|json|hprof|md)$/.test(name)) into.push(path);
  }
  return into;
}

function parse(parser: ThreadDumpSections, text: string, chunk: number) {
  for (let at = 0; at < text.length; at += chunk) parser.pushText(text.slice(at, at + chunk));
  return parser.finish();
}

describe('TextDumpParser against ThreadDumpSections, its speed-ups off', () => {
  const files = [...textFiles(FIXTURES), ...(corpusAvailable ? textFiles(CORPUS) : [])];

  it(`${files.length} files: the same dumps, threads, frames, locks and counts`, () => {
    // The fixtures alone (a clone without ../shared) hold 16 such files; the corpus adds hundreds.
    expect(files.length).toBeGreaterThan(corpusAvailable ? 20 : 10);
    let threads = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      if (text.slice(0, 4096).includes('\u0000')) continue;
      const reference = parse(new ThreadDumpSections(file), text, text.length + 1);
      threads += reference.dumps.reduce((n, d) => n + d.threads.length, 0);
      expect(parse(new TextDumpParser(file), text, 1 << 16), file).toEqual(reference);
    }
    // About 490 threads in the fixtures alone, thousands with the corpus.
    expect(threads).toBeGreaterThan(corpusAvailable ? 1000 : 400);
  });
});
