/**
 * Every line prefix the text parsers look for, followed by a long run of one character: each line is
 * parsed to its end, and the dump's thread is still read. A regex that backtracks on such a run (fuzz
 * seed 6019: a thread header with a run of carriage returns took 35 s; the dump banner's regex was
 * quadratic) makes this file take minutes or hang, which the run's timeout reports: the test times
 * nothing itself, since a bound on milliseconds fails on a machine other work keeps busy.
 */
import { describe, expect, it } from 'vitest';

import { KnownLineCollector } from '../../src/logs/known-lines.js';
import { JavacoreParser } from '../../src/threads/javacore-parser.js';
import { TextDumpParser } from '../../src/threads/text-parser.js';

const PREFIXES = [
  '"t" #1 prio=5 os_prio=0 tid=0x1 nid=0x2 waiting',
  '"t" #1 [2] daemon prio=5 os_prio=0 cpu=1.0ms elapsed=2.0s tid=0x1 nid=3 in Object.wait()',
  '"t" - Thread t@1',
  '"t" Id=1 WAITING on x',
  '"t" id=1 in RUNNABLE',
  '"t" id=1 idx=0x2 tid=3 prio=5 alive',
  // Issue 32: a JRockit header, a bare name and a ThreadInfo owner, each followed by a run (16 KB took 5.7 s).
  '"Main Thread" id=1 idx=0x4 tid=4567 prio=5 alive, in native ',
  '"x" ',
  '"t" Id=1 WAITING on x owned by "',
  '1LKMONOBJECT       Waiting on: ',
  '3XMTHREADBLOCK     Blocked on: x Owned by: "',
  'Full thread dump Java HotSpot',
  '===== FULL THREAD DUMP',
  'java.lang.Thread.State: WAITING (',
  '\tat a.b.C.d(',
  '\t- locked <0x1> (a ',
  '\t- parking to wait for  <0x1> (a ',
  '\t- waiting to lock <0x1> (a ',
  'JNI global refs: ',
  'Found one Java-level deadlock:',
  '"t":',
  '  waiting to lock monitor 0x1 (object 0x2, a ',
  '  which is held by "',
  'Carrying virtual thread #',
  '\t- <0x1> (a ',
  '2026-11-30 10:00:00',
  '_java_thread_list=0x1, length=',
  '"a" waiting for x held by',
  '2026-11-30 10:00:00.000 WARN [x] y - Thread pool is EXHAUSTED! Thread Name: ',
  ' The service using threads greater than <dubbo:service executes="',
  '3XMTHREADINFO      "',
  '4XESTACKTRACE                at ',
  'THREAD DUMP from JVM taken at ',
];
const RUNS = [' ', '\r', '\t', 'a', '0', '"', '(', '= ', '[0x1] ', '[', '<', '0x', 'a=b'];

/** The lines, for runs of `length` characters, after which the text parser did not read the dump's one thread. */
function threadsLost(length: number): string[] {
  const lost: string[] = [];
  for (const prefix of PREFIXES) {
    for (const run of RUNS) {
      const line = prefix + run.repeat(Math.ceil(length / run.length)) + 'x=[';
      const text = new TextDumpParser('t.txt');
      text.pushText(`Full thread dump J:\n\n"main" #1 prio=5 os_prio=0 tid=0x1 nid=0x2 runnable\n${line}\n`);
      const file = text.finish();
      const javacore = new JavacoreParser('javacore.txt');
      javacore.push('0SECTION       THREADS subcomponent dump routine');
      javacore.push(line);
      javacore.finish();
      new KnownLineCollector('app.log').push(line, 1);
      if (!file.dumps.some((d) => d.threads.some((t) => t.name === 'main'))) lost.push(`${JSON.stringify(prefix)} + ${JSON.stringify(run)} x ${length}`);
    }
  }
  return lost;
}

describe('long runs of one character after every prefix the parsers know', { timeout: 300_000 }, () => {
  it('each line is parsed to its end, and the thread before it is kept', () => {
    // Short runs first: cubic backtracking already takes seconds at 2,000 characters (and hours at
    // 40,000, which a test cannot interrupt). Then long runs, where quadratic work would take minutes.
    expect(threadsLost(2_000)).toEqual([]);
    expect(threadsLost(40_000)).toEqual([]);
  });
});
