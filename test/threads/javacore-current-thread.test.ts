/**
 * The thread that asked for a javacore is printed under "Current thread": J9 2.4 prints it again in
 * the thread list, OpenJ9 only there. Either way it is one thread of the dump, and a complete file is
 * not warned about as cut. No OpenJ9 runs on this machine: the OpenJ9 layout is written by hand (a
 * format edge case) after the javacores of the corpus; the J9 2.4 control is a real one.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { JavacoreParser } from '../../src/threads/javacore-parser.js';
import { CORPUS, corpusAvailable } from '../helpers.js';

function parse(text: string) {
  const p = new JavacoreParser('javacore.txt');
  for (const line of text.split('\n')) p.push(line);
  return p.finish();
}

const thread = (name: string, address: string, state: string, frame: string) => [
  `3XMTHREADINFO      "${name}" J9VMThread:${address}, omrthread_t:0x00007F0000001000, java/lang/Thread:0x00000000FFF00000, state:${state}, prio=5`,
  `3XMJAVALTHREAD            (java/lang/Thread getId:0x${address.slice(-2)}, isDaemon:false)`,
  '3XMTHREADINFO1            (native thread ID:0x1A2B, native priority:0x5, native policy:UNKNOWN, vmstate:CW, vm thread flags:0x00000081)',
  '3XMTHREADINFO3           Java callstack:',
  `4XESTACKTRACE                at ${frame}`,
  'NULL',
];

const OPENJ9 = [
  '0SECTION       TITLE subcomponent dump routine',
  '1TIDATETIME    Date: 2026/12/03 at 10:00:00:123',
  '0SECTION       THREADS subcomponent dump routine',
  '1XMPOOLINFO    JVM Thread pool info:',
  '2XMPOOLTOTAL       Current total number of pooled threads: 3',
  '2XMPOOLLIVE        Current total number of live threads: 3',
  'NULL',
  '1XMCURTHDINFO  Current thread',
  ...thread('main', '0x0000000001234500', 'R', 'com/example/App.requestDump(App.java:12)'),
  '1XMTHDINFO     Thread Details',
  'NULL',
  ...thread('worker-1', '0x0000000001234600', 'CW', 'java/lang/Object.wait(Native Method)'),
  ...thread('worker-2', '0x0000000001234700', 'P', 'jdk/internal/misc/Unsafe.park(Native Method)'),
  '0SECTION       END',
].join('\n');

describe('the current thread of a javacore', () => {
  it('printed only under "Current thread" (OpenJ9): one of the threads, and no thread missing', () => {
    const file = parse(OPENJ9);
    expect(file.dumps[0]!.threads.map((t) => t.name).sort()).toEqual(['main', 'worker-1', 'worker-2']);
    expect(file.dumps[0]!.threads.find((t) => t.name === 'main')!.frames).toHaveLength(1);
    expect(file.warnings).toEqual([]);
  });

  it('printed there and again in the list (J9 2.4): one thread, not two', () => {
    const twice = OPENJ9.replace(
      '1XMTHDINFO     Thread Details\nNULL\n',
      `1XMTHDINFO     Thread Details\nNULL\n${thread('main', '0x0000000001234500', 'R', 'com/example/App.requestDump(App.java:12)').join('\n')}\n`,
    );
    const file = parse(twice);
    expect(file.dumps[0]!.threads.map((t) => t.name).sort()).toEqual(['main', 'worker-1', 'worker-2']);
  });

  it.skipIf(!corpusAvailable)('a real J9 2.4 javacore that repeats it: its five threads', () => {
    const file = parse(readFileSync(join(CORPUS, 'eclipse-mat__mat/javacore.20100112.141124.11580.0003.txt'), 'latin1'));
    expect(file.dumps[0]!.threads.map((t) => t.name).filter((n) => n === 'SIGQUIT Thread')).toHaveLength(1);
    expect(file.dumps[0]!.threads).toHaveLength(5);
  });
});
