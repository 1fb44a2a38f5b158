/**
 * Thread dumps inside logs that prefix every line read to the same threads as the dump itself, and
 * the input says which prefix was stripped. The dump is a real JVM's kill -3 output
 * (fixtures/generate-prefixed-logs.sh); script(1) and journald wrote theirs for real, the other writers
 * are imitated (prefix-writers.ts). Controls: the dump as it is, and a log whose prefixed lines are an
 * exception's stack trace, not a dump, are read as before.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { loadThreadInput } from '../../src/analysis/load-threads.js';
import type { ThreadDumpFile } from '../../src/model/thread-dump.js';
import { afterShape, learnLinePrefix, shapeOf } from '../../src/threads/line-prefix.js';
import { scratchDir } from '../helpers.js';
import { PREFIX_WRITERS } from './prefix-writers.js';

const DIR = 'fixtures/threads/prefixed';
const PLAIN = readFileSync(join(DIR, 'kill3-stdout.txt'), 'utf8');
const scratch = scratchDir('prefixed');

/** What must survive the prefix: each thread's name, state and frames, and the deadlock the JVM reported. */
function threadsOf(file: ThreadDumpFile) {
  return file.dumps.flatMap((d) => d.threads.map((t) => `${t.name} ${t.state} ${t.frames.map((f) => `${f.className}.${f.method}`).join(' < ')}`)).sort();
}

async function read(name: string, text: string) {
  const path = join(scratch, name.replace(/\W+/g, '-'));
  writeFileSync(path, text);
  return (await loadThreadInput(path)).file;
}

describe('dumps inside logs that prefix every line', () => {
  it('control: the dump as the JVM wrote it has no prefix, and its threads are where the program put them', async () => {
    const plain = await read('plain', PLAIN);
    expect(plain.linePrefix).toBeUndefined();
    const truth = JSON.parse(readFileSync(join(DIR, 'truth.json'), 'utf8')) as { threads: Record<string, { state: string }> };
    for (const [name, { state }] of Object.entries(truth.threads)) expect(plain.dumps[0]!.threads.find((t) => t.name === name)?.state, name).toBe(state);
    expect(threadsOf(plain).length).toBeGreaterThan(10);
    expect(plain.dumps[0]!.jvmDeadlocks).toHaveLength(1);
  });

  for (const [writer, write] of Object.entries(PREFIX_WRITERS)) {
    it(`${writer} (imitated)`, async () => {
      const plain = await read('plain', PLAIN);
      const file = await read(writer, write(PLAIN.split('\n').slice(0, -1)));
      expect(threadsOf(file)).toEqual(threadsOf(plain));
      expect(file.dumps[0]!.jvmDeadlocks).toHaveLength(1);
      expect(file.linePrefix).toMatch(/stripped from every line/);
    });
  }

  for (const [file, writer] of [
    ['kill3-script.txt', undefined],
    ['kill3-journald-short.log', /journald \/ syslog `Dec 03 [\d:]+ vm kill3-\d+\[\d+\]:`/],
    ['kill3-journald-short-iso.log', /journald \(short-iso\)/],
  ] as const) {
    it(`${file} (written by the real tool)`, async () => {
      const text = readFileSync(join(DIR, file), 'utf8');
      const dump = (await loadThreadInput(join(DIR, file))).file;
      // Another run of the same program: the same threads, in the same places.
      const names = (f: ThreadDumpFile) => f.dumps[0]!.threads.map((t) => `${t.name} ${t.state} ${t.frames.length}`).sort();
      expect(names(dump)).toEqual(names(await read('plain', PLAIN)));
      if (writer === undefined) expect(dump.linePrefix).toBeUndefined();
      else expect(dump.linePrefix).toMatch(writer);
      expect(text.length).toBeGreaterThan(0);
    });
  }

  it('control: an exception stack trace under a logging prefix is not taken for a dump', () => {
    const log = [
      '2026-12-03 10:00:00.001 ERROR [http-nio-8080-exec-1] c.e.Api - request failed',
      '2026-12-03 10:00:00.001 ERROR [http-nio-8080-exec-1] c.e.Api - java.lang.IllegalStateException: boom',
      '2026-12-03 10:00:00.001 ERROR [http-nio-8080-exec-1] c.e.Api - \tat com.example.Api.handle(Api.java:10)',
      '2026-12-03 10:00:00.001 ERROR [http-nio-8080-exec-1] c.e.Api - \tat com.example.Api.route(Api.java:20)',
      '2026-12-03 10:00:00.001 ERROR [http-nio-8080-exec-1] c.e.Api - \tat java.base/java.lang.Thread.run(Thread.java:840)',
    ];
    expect(learnLinePrefix(log)).toBeUndefined();
  });

  it('a prefix shape takes a digit run for each 0 and every other character as it is, in one pass', () => {
    expect(shapeOf('Dec 03 10:00:01 vm java[1234]: ')).toBe('Dec 0 0:0:0 vm java[0]: ');
    expect(afterShape('Dec 03 10:00:01 vm java[77]: at x', 'Dec 0 0:0:0 vm java[0]: ')).toBe('at x');
    expect(afterShape('Dec 03 10:00:01 vm other[77]: at x', 'Dec 0 0:0:0 vm java[0]: ')).toBeUndefined();
    // The prefix alone, its trailing blank cut by the writer: an empty line of the dump.
    expect(afterShape('app-1  |', 'app-0  | ')).toBe('');
    expect(afterShape('0'.repeat(100_000), '0x')).toBeUndefined();
  });
});
