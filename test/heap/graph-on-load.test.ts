/**
 * The object graph built on the heap loader's first pass (one parse of the dump for both, as analyze
 * does for a small heap) must be the graph of a pass of its own, array for array; the loader must
 * load exactly what it loads alone; and two visitors on one pass must each see exactly what they see
 * alone, whichever form of a body (field bytes in place, or a copy) each asks for.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

import { describe, expect, test } from 'vitest';

import { ANALYSIS_PLAN } from '../../src/heap/analysis-plan.js';
import { indexesOfIds } from '../../src/heap/graph/graph-queries.js';
import { idOf, type ObjectGraph } from '../../src/heap/graph/object-graph.js';
import { feedHprof, hprofBytesEstimate } from '../../src/heap/hprof/byte-source.js';
import { type HprofGraphBuilder, hprofGraphBuilder, hprofObjectGraph } from '../../src/heap/hprof/graph/hprof-graph.js';
import { type FirstPassEnd, type LoadHooks, loadHprof } from '../../src/heap/hprof/hprof-loader.js';
import { MAX_DELIVERED_BODY } from '../../src/heap/hprof/parser.js';
import { HprofParser, type HprofVisitor, readId } from '../../src/heap/hprof/parser.js';
import { visitorPair } from '../../src/heap/hprof/visitor-pair.js';
import { finishHeapMemory } from '../../src/heap/memory/finish.js';
import { DeferredMemoryAnalysis } from '../../src/heap/memory/on-load.js';
import { scratchDir } from '../helpers.js';
import { chainHeap } from './hand-hprof.js';

const GZIP_HEAPS = [
  'fixtures/heap/retained/heap.hprof.gz',
  'fixtures/heap/jdk17/heap-jmapgz.hprof.gz',
  'fixtures/heap/jdk25/heap.hprof.gz',
  'fixtures/incidents/session-cache-leak/heap.hprof.gz',
];

/** The graph built on the loader's first pass, and the store the loader returned with it. */
async function graphOnLoad(file: string): Promise<{ graph: ObjectGraph; store: Awaited<ReturnType<typeof loadHprof>> }> {
  let builder: HprofGraphBuilder | undefined;
  let graph: ObjectGraph | undefined;
  const store = await loadHprof(file, ANALYSIS_PLAN, undefined, {
    firstPass: (meta) => (builder = hprofGraphBuilder(hprofBytesEstimate(file), meta, false)).visitor,
    whileOpen: async (_indexed, end) => {
      graph = builder!.finish(end);
    },
  });
  return { graph: graph!, store };
}

/** A graph as plain values (typed arrays, maps and lists compare by content; the id table, a function, by its answers elsewhere). */
const plain = ({ indexOfId: _table, ...g }: ObjectGraph) => ({ ...g, rootKindOf: [...g.rootKindOf], classObjectNames: [...g.classObjectNames] });

function plainCopy(file: string, keep = 1): string {
  const dir = scratchDir('graph-on-load');
  const out = join(dir, 'heap.hprof');
  const bytes = gunzipSync(readFileSync(file));
  writeFileSync(out, bytes.subarray(0, Math.floor(bytes.length * keep)));
  return out;
}

describe("the object graph built on the loader's first pass", { timeout: 120_000 }, () => {
  for (const file of GZIP_HEAPS) {
    test(`${file}: the same graph as its own pass, and the same load as without it`, async () => {
      const { graph, store } = await graphOnLoad(file);
      const own = await hprofObjectGraph(file);
      expect(graph.objects).toBeGreaterThan(1000);
      expect(plain(graph)).toEqual(plain(own));
      const alone = await loadHprof(file, ANALYSIS_PLAN);
      expect(store.histogram).toEqual(alone.histogram);
      expect([...store.objects.keys()]).toEqual([...alone.objects.keys()]);
      expect(store.objects).toEqual(alone.objects);
      expect(store.threads).toEqual(alone.threads);
      expect(store.warnings).toEqual(alone.warnings);
    });
  }

  test('its id table finds what a scan of the ids finds, misses included', async () => {
    const { graph } = await graphOnLoad(GZIP_HEAPS[0]!);
    expect(graph.indexOfId).toBeDefined();
    const all = Array.from(graph.ids, (w) => w * graph.idScale);
    const ids = [...all.slice(0, 5000), ...[...Array(500).keys()].map((k) => all[(k * 7919) % graph.objects]! + 4), 0, 8, 2 ** 40];
    const byTable = indexesOfIds(graph, ids);
    const byScan = indexesOfIds({ ...graph, indexOfId: undefined }, ids);
    expect(byTable.size).toBeGreaterThan(4000);
    expect([...byTable].sort((a, b) => a[0] - b[0])).toEqual([...byScan].sort((a, b) => a[0] - b[0]));
  });

  test('a plain dump, and one cut short: the same graph, warnings included', async () => {
    for (const file of [plainCopy(GZIP_HEAPS[0]!), plainCopy(GZIP_HEAPS[0]!, 0.7)]) {
      const { graph } = await graphOnLoad(file);
      expect(plain(graph)).toEqual(plain(await hprofObjectGraph(file)));
    }
    const cut = await graphOnLoad(plainCopy(GZIP_HEAPS[0]!, 0.7));
    expect(cut.graph.warnings.some((w) => /ends at byte \d+, in the middle of a record/.test(w))).toBe(true);
  });
});

describe('what rides on the load never fails it', { timeout: 120_000 }, () => {
  test('an object array too big to hand over whole: its elements read in pieces as they arrive, every reference kept; the load unchanged', async () => {
    const dir = scratchDir('big-array');
    const file = join(dir, 'heap.hprof');
    const length = MAX_DELIVERED_BODY / 8 + 1000;
    const nodes = [0x1000, 0x1010, 0x1020, 0x1030];
    writeFileSync(file, chainHeap(nodes, length));
    const { graph, store } = await graphOnLoad(file);
    const own = await hprofObjectGraph(file);
    expect(plain(graph)).toEqual(plain(own));
    const array = Array.from(graph.ids, (w) => w * graph.idScale).indexOf(0x9000);
    expect(array).toBeGreaterThanOrEqual(0);
    // Too few objects to measure a layout: a 64-bit JVM with compressed references (16-byte array header) is assumed.
    expect(graph.shallow[array]).toBe(Math.ceil((16 + 4 * length) / 8) * 8);
    // Its class, its first element (the last node) and its last (the second node), in the order written.
    const edges = [...graph.edges.subarray(graph.edgeStart[array]!, graph.edgeStart[array + 1]!)].map((i) => idOf(graph, i));
    expect(edges).toEqual([0x100, nodes[3], nodes[1]]);
    expect(graph.warnings.some((w) => /not read/.test(w))).toBe(false);
    const alone = await loadHprof(file, ANALYSIS_PLAN);
    expect(store.warnings).toEqual(alone.warnings);
    expect(store.histogram).toEqual(alone.histogram);
  });

  test('a rider that throws is told no more: the load reads on as alone, and its end says what was thrown', async () => {
    const file = GZIP_HEAPS[3]!;
    let seen = 0;
    let end: FirstPassEnd | undefined;
    const store = await loadHprof(file, ANALYSIS_PLAN, undefined, {
      firstPass: () => ({
        instanceHeader: () => true,
        instanceFields: () => {
          if (++seen === 1000) throw new RangeError('Array buffer allocation failed');
        },
      }),
      whileOpen: async (_indexed, firstPass) => {
        end = firstPass;
      },
    });
    expect(seen).toBe(1000);
    expect((end?.riderFailure?.error as Error).message).toBe('Array buffer allocation failed');
    const alone = await loadHprof(file, ANALYSIS_PLAN);
    expect(store.histogram).toEqual(alone.histogram);
    expect(store.objects).toEqual(alone.objects);
    expect(store.warnings).toEqual(alone.warnings);
  });

  test("analyze's memory analysis whose graph failed on the load: reported as not computed, the heap loaded", async () => {
    const file = GZIP_HEAPS[3]!;
    const work = new DeferredMemoryAnalysis(file, {});
    const hooks = work.loadHooks();
    let k = 0;
    const failing: LoadHooks = {
      ...hooks,
      firstPass: (meta) => {
        const builder = hooks.firstPass!(meta);
        // The builder's 101st object array finds no memory for its references.
        const objectArrayElements: HprofVisitor['objectArrayElements'] = (...args) => {
          if (++k > 100) throw new RangeError('Array buffer allocation failed');
          builder.objectArrayElements!(...args);
        };
        return { ...builder, objectArrayElements };
      },
    };
    const store = await loadHprof(file, ANALYSIS_PLAN, undefined, failing);
    expect(store.histogram).toEqual((await loadHprof(file, ANALYSIS_PLAN)).histogram);
    const memory = await finishHeapMemory({ where: 'on-load' as const, deferred: work }, 'heap.hprof.gz');
    expect(memory.model.summary).toBeUndefined();
    expect(memory.model.skipped).toBe('the memory analysis failed: Array buffer allocation failed');
  });
});

/** A visitor that writes down everything it is given, asking for the bodies `wants` picks, in one form or the other. */
function recorder(wants: (id: number) => boolean, asFields: boolean): { visitor: HprofVisitor; seen: string[] } {
  const seen: string[] = [];
  let idSize = 8;
  const hex = (view: DataView, at: number, length: number) => Buffer.from(view.buffer, view.byteOffset + at, length).toString('hex');
  const visitor: HprofVisitor = {
    header: (h) => {
      idSize = h.idSize;
      seen.push(`header ${h.idSize}`);
    },
    classDump: (c) => seen.push(`class ${c.id}`),
    root: (kind, id, thread) => seen.push(`root ${kind} ${id} ${thread}`),
    loadClass: (serial, id) => seen.push(`load ${serial} ${id}`),
    instanceHeader: (id, classId) => (seen.push(`i? ${id} ${classId}`), wants(id)),
    objectArrayHeader: (id, classId, n) => (seen.push(`a? ${id} ${classId} ${n}`), wants(id)),
    primitiveArrayHeader: (id, type, n) => (seen.push(`p? ${id} ${type} ${n}`), wants(id)),
    primitiveArrayData: (id, _type, data) => seen.push(`p ${id} ${data.toString('hex')}`),
    ...(asFields
      ? {
          instanceFields: (id, _c, view, at, n) => seen.push(`i ${id} ${hex(view, at, n)}`),
          objectArrayElements: (id, _c, view, at, n) => {
            const ids: number[] = [];
            for (let k = 0; k < n; k++) ids.push(readId(view, at + k * idSize, idSize));
            seen.push(`a ${id} ${ids.join(',')}`);
          },
        }
      : {
          instanceData: (id, _c, data) => seen.push(`i ${id} ${data.toString('hex')}`),
          objectArrayData: (id, _c, elements) => seen.push(`a ${id} ${[...elements].join(',')}`),
        }),
  };
  return { visitor, seen };
}

describe('two visitors on one pass', { timeout: 60_000 }, () => {
  const file = GZIP_HEAPS[0]!;
  const everyThird = (id: number) => Math.floor(id / 8) % 3 === 0;
  const none = () => false;
  const cases: Array<[string, () => ReturnType<typeof recorder>, () => ReturnType<typeof recorder>]> = [
    ['some bodies as copies beside all bodies in place', () => recorder(everyThird, false), () => recorder(() => true, true)],
    ['bodies in place beside no bodies', () => recorder(everyThird, true), () => recorder(none, false)],
    ['both as copies, different bodies', () => recorder(everyThird, false), () => recorder((id) => !everyThird(id), false)],
  ];
  for (const [name, makeFirst, makeSecond] of cases) {
    test(`${name}: each sees what it sees alone`, async () => {
      const first = makeFirst();
      const second = makeSecond();
      await feedHprof(file, new HprofParser(visitorPair(first.visitor, second.visitor, (e) => expect.fail(`the second visitor threw: ${String(e)}`))));
      const firstAlone = makeFirst();
      const secondAlone = makeSecond();
      await feedHprof(file, new HprofParser(firstAlone.visitor));
      await feedHprof(file, new HprofParser(secondAlone.visitor));
      expect(firstAlone.seen.filter((s) => /^[iap] /.test(s)).length).toBeGreaterThan(100);
      expect(first.seen).toEqual(firstAlone.seen);
      expect(second.seen).toEqual(secondAlone.seen);
    });
  }
});
