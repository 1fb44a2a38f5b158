/**
 * A small heap's memory analysis rides on the heap load: the graph built in the loader's first pass,
 * the steps' names read from the blocks of the paths' objects in the file the loader indexed (its
 * plain copy of a gzip dump). It must say exactly what the analysis of the dump itself says; the loader must
 * offer no file when it has none to offer (a dump cut short); and the copy must be gone afterwards.
 */
import { closeSync, existsSync, fstatSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

import { describe, expect, test } from 'vitest';

import { loadAnyInput, type LoadedInput } from '../../src/analysis/load-incident.js';
import { ANALYSIS_PLAN } from '../../src/heap/analysis-plan.js';
import type { MemoryAnalysis } from '../../src/heap/graph/heap-memory.js';
import { shortestStrongPaths } from '../../src/heap/graph/root-path.js';
import { hprofObjectGraphIndexed } from '../../src/heap/hprof/graph/hprof-graph.js';
import { stepNamesFromIndexedFile, stepNamesOfPaths } from '../../src/heap/hprof/graph/step-names.js';
import { loadHprof } from '../../src/heap/hprof/hprof-loader.js';
import { parseIndexedBlock } from '../../src/heap/hprof/indexed-block.js';
import type { IndexedHprof } from '../../src/heap/hprof/object-index.js';
import { analyseMemory, type MemoryAnalysisOptions } from '../../src/heap/memory/analyse-memory.js';
import { finishHeapMemory } from '../../src/heap/memory/finish.js';
import { DeferredMemoryAnalysis } from '../../src/heap/memory/on-load.js';
import { scratchDir } from '../helpers.js';

/** A heap whose suspect, paths and tree are known by construction (fixtures/programs, see retained-fixture.test.ts). */
const RETAINED = 'fixtures/heap/retained/heap.hprof.gz';
/** An incident heap with a leak suspect big enough for analyze to name its path. */
const SESSION_LEAK = 'fixtures/incidents/session-cache-leak/heap.hprof.gz';

const OPTIONS: MemoryAnalysisOptions = { suspectPaths: true, topDominators: 10, topClasses: 15, retainers: { top: 8, children: 4, depth: 5, minShare: 0.001 } };

/** What a report shows of an analysis (the summary and the tree with its paths), without the graph's arrays. */
const shown = (a: MemoryAnalysis) => ({ summary: a.summary, retainers: a.retainers });

/** The analysis run as analyze runs it for a small heap: riding on the load (its graph built in the first pass), the rest on what the loader offers. */
async function analyseWhileLoaded(file: string): Promise<{ analysis: MemoryAnalysis; offered: IndexedHprof | undefined }> {
  const work = new DeferredMemoryAnalysis(file, OPTIONS);
  const hooks = work.loadHooks();
  let offered: IndexedHprof | undefined;
  await loadHprof(file, ANALYSIS_PLAN, undefined, {
    ...hooks,
    whileOpen: async (indexed, firstPass) => {
      offered = indexed;
      await hooks.whileOpen!(indexed, firstPass);
    },
  });
  return { analysis: (await finishHeapMemory({ where: 'on-load' as const, deferred: work }, file)).analysis!, offered };
}

describe("the memory analysis on the loader's indexed file", { timeout: 60_000 }, () => {
  for (const file of [RETAINED, SESSION_LEAK]) {
    test(`${file}: the same summary, tree and named paths as the analysis of the dump itself; the plain copy removed after`, async () => {
      const { analysis, offered } = await analyseWhileLoaded(file);
      expect(offered).toBeDefined();
      expect(offered!.path).not.toBe(file);
      expect(offered!.path.endsWith('.hprof')).toBe(true);
      expect(existsSync(offered!.path)).toBe(false);
      const direct = await analyseMemory(file, OPTIONS);
      expect(shown(analysis)).toEqual(shown(direct));
      // The named steps are there to compare: at least one suspect path of several steps.
      const named = direct.summary.suspects.flatMap((s) => s.path ?? []).filter((step) => step.via !== undefined);
      expect(named.length).toBeGreaterThan(0);
    });
  }

  test('a plain dump is offered as itself, and the names read from its blocks are those of a full pass', async () => {
    const dir = scratchDir('plain');
    const plain = join(dir, 'heap.hprof');
    writeFileSync(plain, gunzipSync(readFileSync(RETAINED)));
    let offered: IndexedHprof | undefined;
    await loadHprof(plain, ANALYSIS_PLAN, undefined, {
      whileOpen: async (indexed) => {
        offered = indexed;
        const a = await analyseMemory(plain, OPTIONS);
        const paths = shortestStrongPaths(
          a.graph,
          [...Array(200).keys()].map((k) => (k * 7919) % a.graph.objects),
        ).filter((p): p is number[] => p !== undefined && p.length > 1);
        expect(paths.length).toBeGreaterThan(10);
        expect(stepNamesFromIndexedFile(indexed!, a.graph, paths)).toEqual(await stepNamesOfPaths(plain, a.graph, paths));
      },
    });
    expect(offered?.path).toBe(plain);
    expect(existsSync(plain)).toBe(true);
  });

  test("the memory analysis's own pass indexes a plain dump: its paths' names read from a few blocks are those of a full pass", async () => {
    const dir = scratchDir('own-index');
    const plain = join(dir, 'heap.hprof');
    const bytes = gunzipSync(readFileSync(SESSION_LEAK));
    writeFileSync(plain, bytes);
    const own = await hprofObjectGraphIndexed(plain);
    expect(own.indexed?.path).toBe(plain);
    const paths = shortestStrongPaths(
      own.graph,
      [...Array(200).keys()].map((k) => (k * 7919) % own.graph.objects),
    ).filter((p): p is number[] => p !== undefined && p.length > 1);
    expect(paths.length).toBeGreaterThan(10);
    expect(stepNamesFromIndexedFile(own.indexed!, own.graph, paths)).toEqual(await stepNamesOfPaths(plain, own.graph, paths));
    // One block from the first object to the end of the 34 MB file (as the last block runs): read in
    // pieces (8 MiB at a time), every object of the dump met once.
    const first = own.indexed!.index.block(0);
    let met = 0;
    const count = () => {
      met++;
      return false;
    };
    const fd = openSync(plain, 'r');
    try {
      const size = fstatSync(fd).size;
      expect(size).toBeGreaterThan(3 * 8 * 1024 * 1024);
      parseIndexedBlock(
        fd,
        size,
        own.indexed!.header,
        { ...first, end: undefined },
        { instanceHeader: count, objectArrayHeader: count, primitiveArrayHeader: count },
      );
    } finally {
      closeSync(fd);
    }
    expect(met).toBe(own.graph.objects - own.graph.classObjectNames.size);
    // The whole analysis of the plain file (names from its index) says what that of the gzip file (a second pass) says.
    expect(shown(await analyseMemory(plain, OPTIONS))).toEqual(shown(await analyseMemory(SESSION_LEAK, OPTIONS)));
    // No index where blocks cannot be read: a gzip file, a file cut short.
    expect((await hprofObjectGraphIndexed(SESSION_LEAK)).indexed).toBeUndefined();
    const cut = join(dir, 'cut.hprof');
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.8)));
    expect((await hprofObjectGraphIndexed(cut)).indexed).toBeUndefined();
  });

  test('a dump cut short offers no file: its analysis reads the dump itself', async () => {
    const dir = scratchDir('cut');
    const cut = join(dir, 'heap.hprof');
    const bytes = gunzipSync(readFileSync(RETAINED));
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.8)));
    let called = false;
    let offered: IndexedHprof | undefined = {} as IndexedHprof;
    await loadHprof(cut, ANALYSIS_PLAN, undefined, {
      whileOpen: async (indexed) => {
        called = true;
        offered = indexed;
      },
    });
    expect(called).toBe(true);
    expect(offered).toBeUndefined();
  });

  test('an analysis that fails while the heap is open does not fail the load: it is reported as not computed', async () => {
    // A V8 snapshot's reader given an HPROF: the analysis throws.
    const work = new DeferredMemoryAnalysis(SESSION_LEAK, { format: 'v8-heapsnapshot' });
    const store = await loadHprof(SESSION_LEAK, ANALYSIS_PLAN, undefined, work.loadHooks());
    expect(store.histogram).toEqual((await loadHprof(SESSION_LEAK, ANALYSIS_PLAN)).histogram);
    const memory = await finishHeapMemory({ where: 'on-load' as const, deferred: work }, 'heap.hprof.gz');
    expect(memory.model.summary).toBeUndefined();
    expect(memory.model.skipped).toMatch(/^the memory analysis failed: /);
  });

  test("analyze's loading gives the heap input the same memory summary as the analysis of the dump", async () => {
    const loaded = (await loadAnyInput(SESSION_LEAK, ANALYSIS_PLAN)) as Extract<LoadedInput, { kind: 'heap' }>;
    const direct = await analyseMemory(SESSION_LEAK, { suspectPaths: true, suspectPathMinBytes: 1024 * 1024, topDominators: 10, topClasses: 15, waste: true });
    expect(loaded.heap.memory?.model.summary).toEqual(direct.summary);
  });
});
