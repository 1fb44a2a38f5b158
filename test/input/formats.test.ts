/**
 * The input-format registry (src/input/formats.ts): a file's format, and so its role, is decided once
 * from its head, and the reading agrees with it on every input the repository and the corpus hold. A log
 * that holds a thread dump past its head still gives the dump (its reading watches for one).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { analysisPlan, loadAnyInput } from '../../src/analysis/load-incident.js';
import { InputError } from '../../src/errors.js';
import { carriesThreadDumpMark, INPUT_FORMATS } from '../../src/input/formats.js';
import { identifyInput } from '../../src/input/identify.js';
import { CORPUS, corpusAvailable, FIXTURES, scratchDir } from '../helpers.js';

function filesUnder(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) filesUnder(path, out);
    else out.push(path);
  }
  return out;
}

/** What the analysis made of a file: threads, a log, a heap, or an error (a file that is no input). */
async function loadedAs(path: string, inIncident: boolean): Promise<string> {
  try {
    return (await loadAnyInput(path, analysisPlan([]), undefined, undefined, inIncident)).kind;
  } catch (e) {
    if (e instanceof InputError) return 'error';
    throw e;
  }
}

describe('the registry', () => {
  it('every format has a kind of its own, and every role has its accepted line', () => {
    const kinds = INPUT_FORMATS.map((f) => f.kind);
    expect(new Set(kinds).size).toBe(kinds.length);
    for (const role of ['threads', 'heap'] as const) expect(INPUT_FORMATS.some((f) => f.role === role && 'accepted' in f)).toBe(true);
  });
});

describe('the head decides, and the reading agrees', { timeout: 120_000 }, () => {
  // Thread dumps, logs, scripts, notes and JSON of every kind the repository keeps (and the corpus, when present);
  // heap dumps are left to the heap tests (their loading is the heap's, routed by the same role).
  const roots = [join(FIXTURES), join('fixtures', 'incidents'), join('fixtures', 'blind'), ...(corpusAvailable ? [CORPUS] : [])];
  const files = roots.flatMap((r) => filesUnder(r)).filter((f) => !/\.(?:hprof|heapsnapshot)(?:\.gz)?$/.test(f));

  it(`a thread-dump format gives thread dumps; a log's gives a log or a refusal (${files.length} files)`, async () => {
    const counted = { threads: 0, log: 0 };
    for (const file of files) {
      const { format } = await identifyInput(file);
      if (format === undefined || format.role === 'heap') continue;
      const loaded = await loadedAs(file, true);
      if (format.role === 'threads') expect(loaded, `${file} (${format.kind})`).toBe('threads');
      else expect(['log', 'error'], `${file} (${format.kind}): ${loaded}`).toContain(loaded);
      counted[format.role]++;
    }
    // Both roles were met: the check above is not empty.
    expect(counted.threads).toBeGreaterThan(50);
    expect(counted.log).toBeGreaterThan(3);
  });
});

describe('a log with a thread dump past its head', { timeout: 60_000 }, () => {
  const dir = scratchDir('formats');
  const logLines = Array.from(
    { length: 40_000 },
    (_, i) => `2024-05-01 10:${String(i % 60).padStart(2, '0')}:00,000 INFO  [main] c.e.App - request ${i} served`,
  );
  const dump = readFileSync(join(FIXTURES, 'deadlock', 'dump-1.txt'), 'utf8');

  it('is identified as a log from its head, and read for the dump all the same', async () => {
    const path = join(dir, 'catalina.out');
    writeFileSync(path, `${logLines.join('\n')}\n${dump}\n${logLines.slice(0, 10).join('\n')}\n`);
    expect(statSync(path).size).toBeGreaterThan(2 * 1024 * 1024);
    expect((await identifyInput(path)).format?.role).toBe('log');
    const loaded = await loadAnyInput(path, analysisPlan([]), undefined, undefined, false);
    const alone = join(dir, 'dump.txt');
    writeFileSync(alone, dump);
    const whole = await loadAnyInput(alone, analysisPlan([]));
    expect(loaded.kind).toBe('threads');
    expect(whole.kind).toBe('threads');
    if (loaded.kind !== 'threads' || whole.kind !== 'threads') return;
    expect(loaded.input.file.dumps.map((d) => d.threads.length)).toEqual(whole.input.file.dumps.map((d) => d.threads.length));
  });

  it('negative control: the same log without the dump is a log in an incident, and refused alone', async () => {
    const path = join(dir, 'app.log');
    writeFileSync(path, `${logLines.join('\n')}\n`);
    expect(await loadedAs(path, true)).toBe('log');
    await expect(loadAnyInput(path, analysisPlan([]))).rejects.toThrow(/app\.log is a log file with no thread dump in it \(first line: "2024-05-01/);
  });
});

describe("a thread dump's marks", () => {
  const marked = [
    ['a HotSpot header', '"main" #1 prio=5 os_prio=0 cpu=12.5ms elapsed=3.1s tid=0x00007f nid=0x1a2b runnable  [0x00007f]'],
    ['an old HotSpot header', '"VM Thread" prio=10 tid=0x08aa nid=0x3 runnable'],
    ["a header behind journald's prefix", 'Dec 03 16:42:50 vm java[13064]: "main" #1 prio=5 os_prio=0 tid=0x1 nid=0x2 waiting on condition'],
    ['the banner', 'Full thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode, sharing):'],
    ["a state line in Docker's JSON log", '{"log":"   java.lang.Thread.State: RUNNABLE\\n","stream":"stdout","time":"2024-05-01T10:00:00Z"}'],
    ['a ThreadInfo header (Arthas, Dubbo_JStack.log)', '"DubboServerHandler-1" Id=42 WAITING on java.util.concurrent.locks.ReentrantLock$NonfairSync@1b6d'],
    ['a VisualVM header', '"main" - Thread t@1'],
    ["JRockit's banner", '===== FULL THREAD DUMP ==============='],
  ] as const;
  const unmarked = [
    ["an exception's frame", '\tat com.example.Service.handle(Service.java:42)'],
    ['a log line with a quoted word and an id', '2024-05-01 10:00:00 INFO user "bob" id=5 logged in'],
    ['a script that greps for the banner', '  grep -q \'^Full thread dump \' "$2" || die "$2 is not a thread dump"'],
    ['a table that quotes the banner', '| `a/b.txt` | a/b | Apache-2.0 | Full thread dump Java HotSpot(TM) 64-Bit Server VM |'],
    ['prose that quotes a header', 'dumps use the format (`"main" prio=5 tid=1 Blocked`, `| group=...`)'],
  ] as const;
  for (const [name, line] of marked) it(`marked: ${name}`, () => expect(carriesThreadDumpMark(line)).toBe(true));
  for (const [name, line] of unmarked) it(`not marked: ${name}`, () => expect(carriesThreadDumpMark(line)).toBe(false));
});
