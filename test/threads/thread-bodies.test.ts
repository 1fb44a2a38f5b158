/**
 * ThreadBodies lets the text parser apply a thread body it has seen before instead of parsing it
 * again. Whatever it remembers, the parse must equal reading every line (`push`, which never uses it).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TextDumpParser } from '../../src/threads/text-parser.js';
import { CORPUS, corpusAvailable, FIXTURES } from '../helpers.js';

function lineByLine(text: string) {
  const p = new TextDumpParser('t');
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (const l of lines) p.push(l);
  return p.finish();
}

function wholeText(text: string) {
  const p = new TextDumpParser('t');
  p.pushText(text);
  return p.finish();
}

function textFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (/\.(txt|out|log|tdump)$|^[^.]+$/.test(e.name) && readFileSync(path)[0] !== 0x1f) files.push(path);
    }
  };
  walk(FIXTURES);
  if (corpusAvailable) walk(CORPUS);
  return files;
}

const header = (i: number) => `"pool-1-thread-${i}" #${20 + i} prio=5 os_prio=0 cpu=1.00ms elapsed=9.00s tid=0x00007f00000${i}0000 nid=0x${(100 + i).toString(16)} waiting on condition  [0x00007f0000001000]`;
// Hand-written from the shape of jstack -l output: the idle-worker body every pool thread prints.
const idleBody = [
  '   java.lang.Thread.State: WAITING (parking)',
  '\tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)',
  '\t- parking to wait for  <0x00000000c5a1f2b8> (a java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject)',
  '\tat java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:341)',
  '\tat java.util.concurrent.ThreadPoolExecutor.getTask(java.base@17.0.15/ThreadPoolExecutor.java:1062)',
  '\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)',
  '',
  '   Locked ownable synchronizers:',
  '\t- None',
  '',
];

describe('thread bodies remembered by the text parser', () => {
  it('give the same parse as reading every line, on every text file of the fixtures and the corpus', () => {
    const files = textFiles();
    expect(files.length).toBeGreaterThan(20);
    for (const f of files) {
      const text = readFileSync(f, 'latin1');
      expect(wholeText(text), f).toEqual(lineByLine(text));
    }
  });

  it('give the same parse with CRLF line ends', () => {
    const text = readFileSync(join(FIXTURES, 'pool', 'dump-1.txt'), 'latin1').replace(/\n/g, '\r\n');
    const parsed = wholeText(text);
    expect(parsed.dumps[0]!.threads.length).toBeGreaterThan(10);
    expect(parsed).toEqual(lineByLine(text));
  });

  it('are applied to identical bodies: the threads share one frame array, and each has its own header fields', () => {
    const text = ['Full thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode):', '', ...[1, 2, 3, 4].flatMap((i) => [header(i), ...idleBody])].join('\n') + '\n';
    // A body ends where the next line starts with a quote, so the last thread is always read line by line.
    const [a, b, c] = wholeText(text).dumps[0]!.threads;
    expect([a!.name, b!.name, c!.name]).toEqual(['pool-1-thread-1', 'pool-1-thread-2', 'pool-1-thread-3']);
    expect(c!.frames).toBe(b!.frames);
    expect(b!.frames).toBe(a!.frames);
    expect(c).toMatchObject({ state: 'WAITING', stateDetail: 'parking', nativeId: '0x67', line: 2 + 2 * (1 + idleBody.length) + 1, endLine: 2 + 3 * (1 + idleBody.length) - 1 });
    expect(c!.frames.map((f) => f.method)).toEqual(['park', 'park', 'getTask', 'run']);
    expect(c!.locks).toEqual([{ frameIndex: 0, kind: 'parking', lock: { id: '0x00000000c5a1f2b8', className: 'java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject' } }]);
  });

  it('are copied before a thread that shares them gets more lines, so the other threads stay as they were', () => {
    // The third "header" is not one (no closing quote), so the lines after it belong to thread 2.
    const text =
      [
        'Full thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode):',
        '',
        header(1),
        ...idleBody,
        header(2),
        ...idleBody,
        '"broken header line',
        '\tat com.example.Extra.frame(Extra.java:1)',
        '',
      ].join('\n') + '\n';
    const parsed = wholeText(text);
    expect(parsed).toEqual(lineByLine(text));
    const [first, second] = parsed.dumps[0]!.threads;
    expect(first!.frames).toHaveLength(4);
    expect(second!.frames).toHaveLength(5);
    expect(second!.frames[4]!.qualified).toBe('com.example.Extra.frame');
  });
});
