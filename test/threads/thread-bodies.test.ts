/**
 * ThreadBodies lets the text parser apply a thread body it has seen before instead of parsing it
 * again. Whatever it remembers, the parse must equal reading every line (`push`, which never uses it).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { TextDumpParser } from '../../src/threads/text-parser.js';
import { corpusAvailable, FIXTURES, parseLineByLine, threadDumpTextFiles } from '../helpers.js';

function wholeText(text: string) {
  const p = new TextDumpParser('t');
  p.pushText(text);
  return p.finish();
}

// A real JVM's pool (fixtures/threads/pool): workers 6 to 8 wait idle for work and print one body.
const poolDump = readFileSync(join(FIXTURES, 'pool', 'dump-1.txt'), 'latin1');
const idleWorkers = [
  'DubboServerHandler-127.0.0.1:20880-thread-6',
  'DubboServerHandler-127.0.0.1:20880-thread-7',
  'DubboServerHandler-127.0.0.1:20880-thread-8',
];

describe('thread bodies remembered by the text parser', () => {
  it('give the same parse as reading every line, on every text file of the fixtures and the corpus', () => {
    const files = threadDumpTextFiles();
    // The fixtures alone hold more than a dozen text dumps; the corpus, when next to the checkout, many more.
    expect(files.length).toBeGreaterThan(corpusAvailable ? 60 : 12);
    for (const f of files) {
      const text = readFileSync(f, 'latin1');
      expect(wholeText(text), f).toEqual(parseLineByLine(text));
    }
  });

  it('give the same parse with CRLF line ends', () => {
    const text = poolDump.replace(/\n/g, '\r\n');
    const parsed = wholeText(text);
    expect(parsed.dumps[0]!.threads.length).toBeGreaterThan(10);
    expect(parsed).toEqual(parseLineByLine(text));
  });

  it('are applied to identical bodies: the idle workers of a pool share their arrays, and each keeps its own header', () => {
    const threads = wholeText(poolDump).dumps[0]!.threads;
    const [a, b, c] = idleWorkers.map((name) => threads.find((t) => t.name === name)!);
    expect(b!.frames).toBe(a!.frames);
    expect(c!.frames).toBe(a!.frames);
    expect(c!.locks).toBe(a!.locks);
    expect(new Set([a, b, c].map((t) => t!.nativeId)).size).toBe(3);
    const lines = poolDump.split('\n');
    for (const t of [a, b, c]) {
      expect(lines[t!.line - 1]!.startsWith(`"${t!.name}"`)).toBe(true);
      expect(t!.endLine).toBeGreaterThan(t!.line);
    }
    expect(c).toMatchObject({ state: 'WAITING', stateDetail: 'parking' });
    expect(c!.frames.map((f) => f.method).slice(0, 2)).toEqual(['park', 'park']);
  });

  it('are copied before a thread that shares them gets more lines, so the other threads stay as they were', () => {
    // Damaged input: after two real idle-worker blocks, a line that starts with a quote but is no
    // header (no closing quote), so the frame after it belongs to the second worker.
    const blockOf = (name: string) => {
      const start = poolDump.indexOf(`"${name}"`);
      return poolDump.slice(start, poolDump.indexOf('\n"', start) + 1);
    };
    const text = [
      'Full thread dump OpenJDK 64-Bit Server VM (17 mixed mode):\n\n',
      blockOf(idleWorkers[0]!),
      blockOf(idleWorkers[1]!),
      '"broken header line\n\tat com.example.Extra.frame(Extra.java:1)\n\n',
    ].join('');
    const parsed = wholeText(text);
    expect(parsed).toEqual(parseLineByLine(text));
    const [first, second] = parsed.dumps[0]!.threads;
    expect(second!.frames).toHaveLength(first!.frames.length + 1);
    expect(second!.frames.at(-1)!.qualified).toBe('com.example.Extra.frame');
  });
});
