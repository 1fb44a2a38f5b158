import { readFileSync } from 'node:fs';

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';

import { TextDumpParser } from '../../src/threads/text-parser.js';
import {
  findNameEnd,
  parseAnyHotspotTail,
  parseAnyThreadHeader,
  parseHotspotTail,
  parseThreadHeader,
  scanCommonHotspotHeader,
  toHex,
} from '../../src/threads/thread-header.js';
import { threadDumpTextFiles } from '../helpers.js';

// Hand-written header lines: format edge cases, one per real variant seen in the wild.
describe('parseThreadHeader', () => {
  test('JDK 17 with cpu and elapsed', () => {
    const h = parseThreadHeader(
      '"main" #1 prio=5 os_prio=0 cpu=58.53ms elapsed=2.26s tid=0x00007f4274017ea0 nid=0x43cc waiting on condition  [0x00007f427ab1e000]',
    )!;
    expect(h).toMatchObject({
      name: 'main',
      format: 'hotspot',
      javaId: '1',
      priority: 5,
      cpuMs: 58.53,
      elapsedS: 2.26,
      nativeId: '0x43cc',
      headerState: 'waiting on condition',
      daemon: false,
    });
  });
  test('JDK 21 with os thread id and decimal nid', () => {
    const h = parseThreadHeader(
      '"Reference Handler" #9 [30467] daemon prio=10 os_prio=31 cpu=0.15ms elapsed=8.05s tid=0x000000013a80e200 nid=30467 waiting on condition  ' +
        '[0x000000016f7fe000]',
    )!;
    expect(h).toMatchObject({ javaId: '9', nativeId: toHex('30467'), daemon: true });
    expect(h.nativeId).toBe('0x7703');
  });
  test('VM thread without id', () => {
    expect(parseThreadHeader('"VM Thread" os_prio=0 cpu=10.27ms elapsed=2.24s tid=0x00007f42740f1000 nid=0x43d2 runnable  ')).toMatchObject({
      name: 'VM Thread',
      state: 'RUNNABLE',
    });
  });
  test('name with quotes inside', () => {
    expect(parseThreadHeader('"say "hi" worker" #12 prio=5 os_prio=0 tid=0x1 nid=0x2 runnable')?.name).toBe('say "hi" worker');
  });
  test('ThreadInfo style names the lock and its owner', () => {
    const h = parseThreadHeader('"w-1" daemon prio=5 Id=23 BLOCKED on java.lang.Object@1b6d3586 owned by "holder" Id=22')!;
    expect(h).toMatchObject({ format: 'threadinfo', javaId: '23', state: 'BLOCKED', lockOwnerName: 'holder', daemon: true });
    expect(h.lock).toEqual({ id: '1b6d3586', className: 'java.lang.Object' });
  });
  test('VisualVM and JMX legacy', () => {
    expect(parseThreadHeader('"Reference Handler" - Thread t@2')).toMatchObject({ format: 'visualvm', javaId: '2' });
    expect(parseThreadHeader('"RMI TCP Connection(23)-127.0.1.1" id=3149 in RUNNABLE (running in native)')).toMatchObject({
      format: 'jmx-legacy',
      state: 'RUNNABLE',
    });
  });
  test('JRockit', () => {
    expect(parseThreadHeader('"Thread-0" id=10 idx=0x14 tid=5628 prio=5 alive, in native, blocked')).toMatchObject({ format: 'jrockit', state: 'BLOCKED' });
    expect(parseThreadHeader('"(Signal Handler)" prio=5 id=0x100 tid=0x17fc active, daemon')).toMatchObject({ format: 'jrockit', daemon: true });
  });
  test('deadlock report entries and log lines are not headers', () => {
    expect(parseThreadHeader('"mon-1":')).toBeNull();
    expect(parseThreadHeader('"key": 1')).toBeNull();
  });
});

// The common-shape fast path must say exactly what the general parser says, on every real header.
describe('parseHotspotTail fast path', () => {
  const headers = collectHotspotHeaders();
  test(`agrees with the general parser on ${headers.length} real header lines`, () => {
    expect(headers.length).toBeGreaterThan(100);
    let fast = 0;
    for (const { name, tail } of headers) {
      const general = parseAnyHotspotTail(name, tail);
      expect(parseHotspotTail(name, tail), tail).toEqual(general);
      if (/^(?:#\d+ )?(?:\[\d+\] )?(?:daemon )?prio=/.test(tail) && !/allocated=|lwp_id=/.test(tail)) fast++;
    }
    // Most real headers take the fast path, so the comparison covers it.
    expect(fast).toBeGreaterThan(headers.length / 2);
  });
});

// The whole-line scanner is the first thing parseThreadHeader tries: where it answers, it must say
// what the pattern-based parser says.
describe('scanCommonHotspotHeader', () => {
  /** How many of the lines the scanner reads, each checked equal to the general parser's answer. */
  const scannedAlike = (lines: readonly string[]): number => {
    let scanned = 0;
    for (const line of lines) {
      const fast = scanCommonHotspotHeader(line);
      if (fast === null) continue;
      scanned++;
      expect(fast, line).toEqual(parseAnyThreadHeader(line));
    }
    return scanned;
  };

  const lines = collectHeaderLines();
  test(`agrees with parseAnyThreadHeader on ${lines.length} real header lines, and reads most of them`, () => {
    expect(lines.length).toBeGreaterThan(100);
    expect(scannedAlike(lines)).toBeGreaterThan(lines.length / 2);
  });

  // Hand-written: layouts at the scanner's edges, each either read the same or left to the general parser.
  const edges = [
    '"a" #1 prio=5 os_prio=0 tid=0x1 nid=0x2 runnable',
    '"a"  #1 prio=5 os_prio=0 tid=0x1 nid=0x2 runnable',
    '"a" #1 [77] daemon prio=10 os_prio=-2 cpu=1.5ms elapsed=2.25s tid=0xAB nid=77 waiting on condition  [0x00007f00]',
    '"a" #1 prio=5 os_prio=0 tid=0x1 nid=0x2   runnable   ',
    '"a" #1 prio=5 os_prio=0 tid=0x1 nid=0xZ runnable',
    '"a" #1 prio=5 os_prio=0 tid=0x1 nid=0x2]',
    '"a" #1 prio=5 os_prio=0 tid=0x1 nid=0x2 waiting [0x1] more',
    '"a" #1 prio=5 os_prio=0 tid=0x1 nid=0x2 allocated=12k defined_classes=3',
    '"a" #1 prio=5 os_prio= tid=0x1 nid=0x2 runnable',
    '"a" #x prio=5 tid=0x1 nid=0x2 runnable',
    '"a" #1 [x] prio=5 tid=0x1 nid=0x2 runnable',
    '"a" #1 prio=5 cpu=1.2.3ms elapsed=s tid=0x1 nid=0x2 runnable',
    '"say "hi" worker" #12 prio=5 os_prio=0 tid=0x1 nid=0x2 runnable',
    '"x" prio=5" #1 prio=5 os_prio=0 tid=0x1 nid=0x2 runnable',
    '"VM Thread" os_prio=0 tid=0x1 nid=0x2 runnable',
    '"a" daemon prio=5 tid=0x00000000 nid=0x0',
    '"a" #1 prio=5 os_prio=0 tid=0x1 nid=0x2 runnable x',
    '"a" #1 prio=5 os_prio=0 tid=0x1 nid=0x2 sleeping[0x00007f00]',
    '"a" #1 prio=5 os_prio=0 tid=0x1 nid=0x2 parking   ',
    '"a" #1 prio=5 os_prio=0 tid=0x1 nid=0x2 in Object.wait()  [0x00007f0000abc000]',
    '"a" #1 prio=5 os_prio=0 tid=0x1 nid=0x2 waiting for monitor entry  [0x00007f0000abc000]\t',
    '"a" #1 prio=5 os_prio=0 tid=0x1 nid=0x2 waiting on condition  [0x]',
    '"a" #1 prio=5 os_prio=0 tid=0x1 nid=0x2  runnable',
  ];
  // The scanner reads cpu= and elapsed= in place (digits over a power of ten), where the general
  // parser calls Number on the text: any run of digits and dots must give the same number.
  test('cpu= and elapsed= read as Number reads them, for any digits and dots', () => {
    const decimal = fc.stringMatching(/^[0-9.]{1,20}$/);
    fc.assert(
      fc.property(decimal, decimal, fc.integer({ min: 0, max: 99 }), (cpu, elapsed, prio) => {
        const line = `"t" #7 prio=${prio} os_prio=0 cpu=${cpu}ms elapsed=${elapsed}s tid=0x7f00AB nid=0x1f runnable`;
        const fast = scanCommonHotspotHeader(line);
        expect(fast).not.toBeNull();
        expect(fast).toEqual(parseAnyThreadHeader(line));
        expect(Object.is(fast!.cpuMs, Number(cpu))).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  test('format edges: the same answer, or none', () => {
    expect(scannedAlike(edges)).toBeGreaterThanOrEqual(5);
    expect(scanCommonHotspotHeader(edges[1]!)).toBeNull();
    expect(parseThreadHeader(edges[2]!)).toMatchObject({
      javaId: '1',
      daemon: true,
      priority: 10,
      cpuMs: 1.5,
      elapsedS: 2.25,
      address: '0xab',
      nativeId: '0x4d',
      state: 'WAITING',
    });
  });
});

/** Every line of the corpus and the fixtures that starts (after indentation) with a quote. */
function collectHeaderLines(): string[] {
  const out: string[] = [];
  for (const f of threadDumpTextFiles()) {
    for (const line of readFileSync(f).toString('utf8').split('\n')) {
      const t = line.replace(/\r$/, '').trimStart();
      if (t.startsWith('"')) out.push(t);
    }
  }
  return out;
}

function collectHotspotHeaders(): Array<{ name: string; tail: string }> {
  const out: Array<{ name: string; tail: string }> = [];
  for (const f of threadDumpTextFiles()) {
    for (const line of readFileSync(f).toString('utf8').split('\n')) {
      const t = line.trim();
      if (!t.startsWith('"') || !/ (?:tid|nid)=/.test(t)) continue;
      const end = findNameEnd(t);
      if (end > 0) out.push({ name: t.slice(1, end), tail: t.slice(end + 1).trim() });
    }
  }
  return out;
}

describe('cpu= and elapsed= in every locale the JVM prints', () => {
  const figures = (cpu: string, elapsed: string) => {
    const h = parseThreadHeader(`"x" #1 prio=5 os_prio=0 cpu=${cpu}ms elapsed=${elapsed}s tid=0x1 nid=0x2 runnable`);
    return [h?.cpuMs, h?.elapsedS];
  };
  test.each([
    ['1234.56', '7.25', 1234.56, 7.25],
    ['1234,56', '7,25', 1234.56, 7.25],
    ['1,234.56', '1,007.25', 1234.56, 1007.25],
    ['1.234,56', '1.007,25', 1234.56, 1007.25],
    ["1'234.56", "1'007.25", 1234.56, 1007.25],
  ])('%s ms and %s s', (cpu, elapsed, cpuMs, elapsedS) => {
    expect(figures(cpu, elapsed)).toEqual([cpuMs, elapsedS]);
  });

  test('a figure that is no number is no number (NaN: the parser counts it and leaves the field unset)', () => {
    expect(figures('1,2,3', '4.5.6').map(Number.isNaN)).toEqual([true, true]);
  });

  test('the parser counts unreadable figures in a warning and leaves them unset', () => {
    const text = [
      'Full thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode):',
      '',
      '"worker" #12 prio=5 os_prio=0 cpu=1,2,3ms elapsed=12,50s tid=0x1 nid=0x2 runnable  [0x0]',
      '   java.lang.Thread.State: RUNNABLE',
      '\tat com.acme.Work.run(Work.java:1)',
      '',
    ].join('\n');
    const parser = new TextDumpParser('x.txt');
    parser.pushText(text);
    const file = parser.finish();
    const th = file.dumps[0]!.threads[0]!;
    expect([th.cpuMs, th.elapsedS]).toEqual([undefined, 12.5]);
    expect(file.warnings.join('\n')).toMatch(/1 cpu=\/elapsed= figures of thread headers could not be read as numbers \(first at line 3, cpu=\)/);
  });
});
