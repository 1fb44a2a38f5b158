/**
 * The text parser takes decoded text in chunks of any size, and lines split across chunks anywhere
 * (also between `\r` and `\n`). Whatever the cut, the result must equal feeding whole lines.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { TextDumpParser } from '../../src/threads/text-parser.js';
import { FIXTURES, parseLineByLine } from '../helpers.js';

function byChunks(text: string, sizes: (i: number) => number) {
  const p = new TextDumpParser('t');
  let at = 0;
  for (let i = 0; at < text.length; i++) {
    const n = Math.max(1, sizes(i));
    p.pushText(text.slice(at, at + n));
    at += n;
  }
  return p.finish();
}

const samples = ['pool/dump-1.txt', 'deadlock/dump-1.txt', 'logs/catalina.out', 'series/dump-2.txt'];

describe('TextDumpParser.pushText', () => {
  for (const sample of samples) {
    const text = readFileSync(join(FIXTURES, sample), 'utf8');
    const expected = parseLineByLine(text);

    it(`${sample}: chunks of 1, 7, 4096 characters and random sizes give the same dumps as whole lines`, () => {
      expect(expected.dumps.length).toBeGreaterThan(0);
      expect(expected.dumps[0]!.threads.length).toBeGreaterThan(5);
      for (const size of [1, 7, 4096]) expect(byChunks(text, () => size)).toEqual(expected);
      // A fixed pseudo-random sequence, so a failure reproduces.
      let seed = 12345;
      const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) % 3000) + 1;
      expect(byChunks(text, random)).toEqual(expected);
    });

    it(`${sample}: CRLF line ends cut between \\r and \\n give the same dumps`, () => {
      const crlf = text.replace(/\n/g, '\r\n');
      const reference = parseLineByLine(crlf);
      expect(reference.dumps.map((d) => d.threads.length)).toEqual(expected.dumps.map((d) => d.threads.length));
      // Every cut lands right after a \r.
      const cuts: number[] = [];
      for (let i = crlf.indexOf('\r'); i >= 0; i = crlf.indexOf('\r', i + 1)) cuts.push(i + 1);
      let last = 0;
      const p = new TextDumpParser('t');
      for (const c of cuts) {
        p.pushText(crlf.slice(last, c));
        last = c;
      }
      p.pushText(crlf.slice(last));
      expect(p.finish()).toEqual(reference);
    });
  }

  it('the same frames follow each other in every thread of a pool and are shared, not copied', () => {
    const text = readFileSync(join(FIXTURES, 'pool/dump-1.txt'), 'utf8');
    const file = byChunks(text, () => 1 << 16);
    const workers = file.dumps[0]!.threads.filter((t) => t.name.startsWith('DubboServerHandler-'));
    expect(workers.length).toBeGreaterThan(3);
    const runWorker = (t: (typeof workers)[number]) => t.frames.find((f) => f.qualified === 'java.util.concurrent.ThreadPoolExecutor.runWorker');
    expect(runWorker(workers[0]!)).toBeDefined();
    expect(runWorker(workers[1]!)).toBe(runWorker(workers[0]!));
  });
});
