/**
 * Property-based robustness over every parser: real inputs (fixtures produced by real JVMs, corpus
 * files) truncated at arbitrary offsets, bit-flipped, overwritten with byte runs, spliced with random
 * bytes, and with big numbers written where lengths live. Every case must end in bounded time and
 * memory with results or a one-line refusal (see harness.ts). Seeded: a failure prints its seed and
 * path, and `DUMPSLEUTH_FUZZ_SEED=<seed>` reproduces it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { TextDumpParser } from '../../src/threads/text-parser.js';
import { parseLineByLine } from '../helpers.js';
import { analyseBytes, mutate, mutation, propertyOptions } from './harness.js';
import { hprofRecords } from './hprof-records.js';

const CORPUS_JAVACORE = '../shared/corpus/threaddumps/eclipse-mat__mat/javacore.20130429.083110.14261.0002.txt';

const textInputs: Array<[string, string]> = [
  ['jstack-l (JDK 17)', 'fixtures/threads/deadlock/dump-1.txt'],
  ['jcmd Thread.print', 'fixtures/threads/deadlock/jcmd-thread-print.txt'],
  ['JDK 25 jstack', 'fixtures/threads/pool/jdk25-dump-1.txt'],
  ['ThreadInfo log', 'fixtures/threads/threadinfo/Dubbo_JStack.log'],
  ['dumps inside catalina.out', 'fixtures/threads/logs/catalina.out'],
  ['application log', 'fixtures/incidents/active-count-leak/app.log'],
];

describe('mutated thread dumps and logs', { timeout: 300_000 }, () => {
  for (const [label, path] of textInputs) {
    it(label, async () => {
      const base = readFileSync(path);
      await fc.assert(
        fc.asyncProperty(mutation, async (m) => {
          await analyseBytes(mutate(base, m), 'dump.txt');
        }),
        propertyOptions(),
      );
    });
  }

  it.skipIf(!existsSync(CORPUS_JAVACORE))('IBM javacore (corpus)', async () => {
    const base = readFileSync(CORPUS_JAVACORE);
    await fc.assert(
      fc.asyncProperty(mutation, async (m) => void (await analyseBytes(mutate(base, m), 'javacore.txt'))),
      propertyOptions(),
    );
  });

  it('gzip thread dump, truncated or damaged in the compressed bytes', async () => {
    const base = gzipSync(readFileSync('fixtures/threads/series/dump-1.txt'));
    await fc.assert(
      fc.asyncProperty(mutation, async (m) => void (await analyseBytes(mutate(base, m), 'dump.txt.gz'))),
      propertyOptions(),
    );
  });

  it('UTF-16 thread dump, mutated', async () => {
    const text = readFileSync('fixtures/threads/contention/dump-1.txt', 'utf8');
    const base = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    await fc.assert(
      fc.asyncProperty(mutation, async (m) => void (await analyseBytes(mutate(base, m), 'dump-utf16.txt'))),
      propertyOptions(),
    );
  });
});

// The text parser applies a thread body it saw before instead of reading it again (ThreadBodies):
// whatever the damage, that must give what reading every line gives.
describe('mutated thread dumps: remembered bodies change nothing', { timeout: 300_000 }, () => {
  for (const path of ['fixtures/threads/pool/dump-1.txt', 'fixtures/threads/contention/dump-1.txt', 'fixtures/threads/logs/catalina.out']) {
    it(path, async () => {
      const base = readFileSync(path);
      await fc.assert(
        fc.asyncProperty(mutation, fc.integer({ min: 64, max: 1 << 16 }), async (m, chunkSize) => {
          const text = mutate(base, m).toString('latin1');
          const p = new TextDumpParser('t');
          for (let at = 0; at < text.length; at += chunkSize) p.pushText(text.slice(at, at + chunkSize));
          expect(p.finish()).toEqual(parseLineByLine(text));
        }),
        propertyOptions(),
      );
    });
  }
});

describe('mutated JSON thread dumps', { timeout: 300_000 }, () => {
  for (const path of ['fixtures/threads/deadlock/jdk25-threads.json', 'fixtures/threads/pool/jdk25-threads.json']) {
    it(`bytes of ${path}`, async () => {
      const base = readFileSync(path);
      await fc.assert(
        fc.asyncProperty(mutation, async (m) => void (await analyseBytes(mutate(base, m), 'threads.json'))),
        propertyOptions(),
      );
    });
  }

  it('the right keys with the wrong types', async () => {
    const doc = JSON.parse(readFileSync('fixtures/threads/deadlock/jdk25-threads.json', 'utf8'));
    const wrong = fc.constantFrom<unknown>(null, 0, -1, 1e308, 'x', '', true, [], {}, [[]], { threadDump: 1 }, '\u0000\u001b[2J');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.nat(), wrong), { minLength: 1, maxLength: 6 }), async (changes) => {
        const copy = structuredClone(doc);
        for (const [pick, value] of changes) replaceNth(copy, pick, value);
        await analyseBytes(Buffer.from(JSON.stringify(copy)), 'threads.json');
      }),
      propertyOptions(),
    );
  });
});

/** Replaces the (n mod count)-th value in a JSON tree (depth first) with `value`. */
function replaceNth(root: unknown, n: number, value: unknown): void {
  const slots: Array<[Record<string, unknown> | unknown[], string | number]> = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach((v, i) => (slots.push([node, i]), walk(v)));
    else if (node !== null && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        slots.push([node as Record<string, unknown>, k]);
        walk(v);
      }
    }
  };
  walk(root);
  if (slots.length === 0) return;
  const [parent, key] = slots[n % slots.length]!;
  // A copy each time: the same object placed twice, then changed inside, would make a cycle.
  (parent as Record<string | number, unknown>)[key] = structuredClone(value);
}

describe('mutated heap dumps', { timeout: 300_000 }, () => {
  const hprof = gunzipSync(readFileSync('fixtures/heap/jdk17/heap.hprof.gz'));
  const records = hprofRecords(hprof);

  it('HPROF bytes anywhere', async () => {
    await fc.assert(
      fc.asyncProperty(mutation, async (m) => void (await analyseBytes(mutate(hprof, m), 'heap.hprof'))),
      propertyOptions(),
    );
  });

  it('HPROF class and string records (the first 5%)', async () => {
    const focus = { from: 0, to: Math.floor(hprof.length / 20) };
    await fc.assert(
      fc.asyncProperty(mutation, async (m) => void (await analyseBytes(mutate(hprof, m, focus), 'heap.hprof'))),
      propertyOptions(),
    );
  });

  it('HPROF record lengths that claim gigabytes, unknown tags, a wrong id size', async () => {
    expect(records.length).toBeGreaterThan(100);
    const edit = fc.oneof(
      fc.record({ kind: fc.constant('length' as const), record: fc.nat(), value: fc.constantFrom(0, 1, 0x7fffffff, 0xffffffff, 0x40000000) }),
      fc.record({ kind: fc.constant('tag' as const), record: fc.nat(), tag: fc.integer({ min: 0, max: 255 }) }),
      fc.record({ kind: fc.constant('idSize' as const), value: fc.constantFrom(0, 1, 2, 3, 4, 5, 7, 8, 16, 255) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 3 }), async (edits) => {
        const copy = Buffer.from(hprof);
        for (const e of edits) {
          if (e.kind === 'idSize') copy.writeUInt32BE(e.value, records.idSizeOffset);
          else {
            const r = records[e.record % records.length]!;
            if (e.kind === 'length') copy.writeUInt32BE(e.value, r + 5);
            else copy[r] = e.tag;
          }
        }
        await analyseBytes(copy, 'heap.hprof');
      }),
      propertyOptions(),
    );
  });

  it('gzip HPROF (jmap gz members), truncated or damaged in the compressed bytes', async () => {
    const base = readFileSync('fixtures/heap/jdk17/heap-jmapgz.hprof.gz');
    await fc.assert(
      fc.asyncProperty(mutation, async (m) => void (await analyseBytes(mutate(base, m), 'heap.hprof.gz'))),
      propertyOptions(15),
    );
  });

  it('V8 .heapsnapshot', async () => {
    const base = gunzipSync(readFileSync('fixtures/heap-v8/markers.heapsnapshot.gz'));
    await fc.assert(
      fc.asyncProperty(mutation, async (m) => void (await analyseBytes(mutate(base, m), 'node.heapsnapshot'))),
      propertyOptions(15),
    );
  });
});

describe('random bytes', { timeout: 300_000 }, () => {
  it('any bytes, under any name', async () => {
    const prefix = fc.constantFrom(
      '',
      'JAVA PROFILE 1.0.2\u0000',
      '{',
      '{"threadDump":',
      '{"format":"dumpsleuth.heap/1"',
      'Full thread dump ',
      '0SECTION',
      '"main" #1 ',
      '\u001f\u008b',
    );
    await fc.assert(
      fc.asyncProperty(prefix, fc.uint8Array({ maxLength: 4096 }), fc.constantFrom('x.txt', 'x.hprof', 'x.json', 'x.gz'), async (p, bytes, name) => {
        await analyseBytes(Buffer.concat([Buffer.from(p, 'latin1'), bytes]), name);
      }),
      propertyOptions(60),
    );
  });
});

describe('the JSON heap snapshot', { timeout: 300_000 }, () => {
  it('mutated bytes of an extract', async () => {
    const { extractToBuffer } = await import('./extract-buffer.js');
    const base = await extractToBuffer(join('fixtures/incidents/active-count-leak', 'heap.hprof.gz'));
    await fc.assert(
      fc.asyncProperty(mutation, async (m) => void (await analyseBytes(mutate(base, m), 'incident.json'))),
      propertyOptions(),
    );
  });
});
