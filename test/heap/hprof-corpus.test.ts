/**
 * Heap dumps written by others (../shared/corpus/heap, read in place), and truncated copies of a
 * fixture: every one opens, or fails with a one-line reason, and never hangs.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

import { describe, expect, it } from 'vitest';

import { threadDumpFromHeap } from '../../src/heap/heap-threads.js';
import { HeapView } from '../../src/heap/heap-view.js';
import { feedHprof } from '../../src/heap/hprof/byte-source.js';
import { ClassMetadata } from '../../src/heap/hprof/class-metadata.js';
import { hprofHistogram } from '../../src/heap/hprof/hprof-histogram.js';
import { loadHprof } from '../../src/heap/hprof/hprof-loader.js';
import { HprofFormatError, HprofParser } from '../../src/heap/hprof/parser.js';
import { scratchDir } from '../helpers.js';
import { jmapName } from './jmap-histo.js';

const HEAP_CORPUS = join('..', 'shared', 'corpus', 'heap', 'eclipse-mat__mat');
const haveCorpus = existsSync(HEAP_CORPUS);
// Skipped silently without it: test/global-setup.ts says once per run that ../shared is absent.

describe.skipIf(!haveCorpus)('heap corpus (../shared/corpus/heap)', () => {
  const files: Array<[string, { idSize: number; version: string; threads: number; warnings?: RegExp; noStacks?: boolean }]> = [
    ['oracle_jdk8_05_x64.hprof', { idSize: 8, version: '1.0.1', threads: 5 }],
    ['openjdk_jdk11_04_x64.hprof.gz', { idSize: 8, version: '1.0.2', threads: -1 }],
    ['sun_jdk6_30_x64_compressedOops.hprof', { idSize: 8, version: '1.0.1', threads: 5 }],
    // The agent wrote two HEAP DUMP records (at 92,694 and 333,133, about 239 KB each): two dumps of
    // one heap. Read together, every object was there twice (and 14 threads, each twice); the first is read, as MAT reads it.
    [
      'oracle_jdk7_21_hprofagent.hprof',
      { idSize: 4, version: '1.0.1', threads: 7, warnings: /^the file holds 2 heap dumps .*the first was read/, noStacks: true },
    ],
  ];
  for (const [file, expected] of files) {
    it(`${file}: header, histogram and thread objects`, async () => {
      const path = join(HEAP_CORPUS, file);
      const h = await hprofHistogram(path);
      if (expected.warnings === undefined) expect(h.warnings).toEqual([]);
      else expect(h.warnings).toEqual([expect.stringMatching(expected.warnings)]);
      expect(h.rows.length).toBeGreaterThan(100);
      // Every class is named (no "(class 0x...)" placeholder): names and LOAD_CLASS records were all read.
      expect(h.rows.filter((r) => r.className.startsWith('(class'))).toEqual([]);
      const store = await loadHprof(path, { roots: [{ className: 'java.lang.Thread', depth: 2 }] });
      expect(store.source.idSize).toBe(expected.idSize);
      expect(store.source.hprofVersion).toBe(expected.version);
      const view = new HeapView(store);
      const threads = view.instancesOf('java.lang.Thread');
      if (expected.threads >= 0) expect(store.threads.length).toBe(expected.threads);
      expect(threads.length).toBeGreaterThan(2);
      // Thread names: JDK 6-8 keep a char[], JDK 9+ a String.
      const names = threads.map((t) => {
        const n = view.object(view.field(t, 'name') ?? null);
        return n?.kind === 'primitive-array' ? String.fromCharCode(...(n.values as number[])) : view.string(n);
      });
      // The agent's dump was taken after main ended; every JVM has a Finalizer thread.
      expect(names).toContain('Finalizer');
      // The same threads as a thread dump, from the dump's traces: every state known, the Finalizer waiting.
      const fromHeap = threadDumpFromHeap(view, store, path);
      if (expected.noStacks === true) {
        // The first dump's thread roots all name the agent's empty trace (serial 300000): no stacks to show.
        expect(fromHeap).toBeUndefined();
        return;
      }
      const dump = fromHeap!.dumps[0]!;
      expect(dump.threads.filter((t) => t.state === 'UNKNOWN').map((t) => t.name)).toEqual([]);
      expect(dump.threads.find((t) => t.name === 'Finalizer')!.state).toBe('WAITING');
    });
  }

  it('sun_jdk6_30: the histogram equals the expected one MAT ships with the dump, but for three explained rows', async () => {
    const h = await hprofHistogram(join(HEAP_CORPUS, 'sun_jdk6_30_x64_compressedOops.hprof'));
    const ours = new Map(h.rows.map((r) => [r.className, r]));
    const differ: string[] = [];
    let equalRows = 0;
    for (const line of readFileSync(join(HEAP_CORPUS, 'sun_jdk6_30_x64_compressedOops.notes.txt'), 'utf8').split('\n')) {
      const m = /^\s*\d+:\s+(\d+)\s+(\d+)\s+(\S+)/.exec(line);
      // <methodKlass> and friends are JDK 6 perm-gen metadata, which HPROF does not dump.
      if (!m || m[3]!.startsWith('<')) continue;
      const name = jmapName(m[3]!);
      if (ours.get(name)?.instances === Number(m[1])) equalRows++;
      else differ.push(name);
    }
    expect(equalRows).toBeGreaterThan(150);
    // The notes are `jmap -histo` (every object, reachable or not); the dump holds live objects only:
    // 508 unreachable int[][] and one Object are gone, and Class counts the perm-gen mirrors too.
    expect(differ.sort()).toEqual(['int[][]', 'java.lang.Class', 'java.lang.Object']);
  });

  it('the hprof agent writes class names with dots: the same classes as with slashes', async () => {
    const meta = new ClassMetadata();
    await feedHprof(join(HEAP_CORPUS, 'oracle_jdk7_21_hprofagent.hprof'), new HprofParser(meta.visitor()));
    expect([...meta.classNameIds.values()].map((n) => meta.symbol(n))).toContain('java.lang.String');
    for (const name of ['java/lang/String', 'java/lang/Class', 'java/lang/Thread']) expect(meta.classIdNamed(name), name).toBeDefined();
  });

  it('an IBM Portable Heap Dump is refused with what it is', async () => {
    await expect(hprofHistogram(join(HEAP_CORPUS, 'heapdump.20130429.083110.14261.0001.phd'))).rejects.toThrow(HprofFormatError);
  });
});

describe('truncated heap dumps', () => {
  const whole = gunzipSync(readFileSync(join('fixtures', 'heap', 'jdk17', 'heap.hprof.gz')));
  const dir = scratchDir('cut');
  // Cuts inside the header, the names, the class dumps and the objects, and one byte short of the end.
  const cuts = [
    5,
    20,
    31,
    40,
    1000,
    50_000,
    200_000,
    400_000,
    700_000,
    1_000_000,
    1_500_000,
    2_000_000,
    2_500_000,
    3_000_000,
    whole.length - 9,
    whole.length - 1,
  ];
  for (const cut of cuts) {
    it(`cut at byte ${cut}: what is before the cut, and a warning naming where it ends`, { timeout: 20_000 }, async () => {
      const path = join(dir, `cut-${cut}.hprof`);
      writeFileSync(path, whole.subarray(0, cut));
      if (cut < 31) {
        await expect(hprofHistogram(path)).rejects.toThrow(/HPROF header|not an HPROF/);
        return;
      }
      const h = await hprofHistogram(path);
      expect(h.warnings.join('\n')).toMatch(/ends in the middle of a record at byte \d+/);
      const store = await loadHprof(path, { roots: [{ className: 'java.lang.Thread', depth: 2 }], statics: [{ className: 'HeapObjects', depth: 8 }] });
      expect(store.warnings.join('\n')).toMatch(/truncated/);
      // Whatever was read is usable: the counts grow with the cut.
      expect(h.totalInstances).toBeLessThanOrEqual(19_800);
    });
  }

  it('a gzip file cut short gives the objects before the cut and a warning', { timeout: 20_000 }, async () => {
    const gz = readFileSync(join('fixtures', 'heap', 'jdk17', 'heap.hprof.gz'));
    const path = join(dir, 'cut.hprof.gz');
    // The first third of the stream is names and classes; this cut falls among the objects.
    writeFileSync(path, gz.subarray(0, Math.floor(gz.length * 0.8)));
    const h = await hprofHistogram(path);
    expect(h.totalInstances).toBeGreaterThan(1000);
    expect(h.warnings.join('\n')).toMatch(/ends in the middle of a record|truncated/);
  });
});
