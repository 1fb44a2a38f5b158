/**
 * The memory-waste analysis (src/heap/waste) on the heaps of real JVMs that made waste of known
 * amounts (fixtures/heap/memory-beyond/waste) and none (waste-control, the negative control), against
 * what the program said it holds (truth.json), what `jmap -histo:live` counted, and what an
 * independent HPROF reader (fixtures/hprof-count.cjs, `heapCount` of the truth) found in the same dump.
 *
 * Each heap is analysed as `memory` analyses it: the waste found from the object graph and the facts
 * its pass gathered (src/heap/waste/graph-waste.ts), with every group and value listed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

import { beforeAll, describe, expect, test } from 'vitest';

import { type ObjectGraph } from '../../src/heap/graph/object-graph.js';
import { analyseMemory } from '../../src/heap/memory/analyse-memory.js';
import { NO_REFERRER } from '../../src/heap/waste/holder-names.js';
import { type MemoryWaste, WASTE_KINDS, WASTE_SHARE_OPTIONS, type WasteShareThresholds } from '../../src/model/memory-waste.js';
import { wasteShare } from '../../src/rules/support/waste-share.js';
import { scratchDir } from '../helpers.js';

const BASE = 'fixtures/heap/memory-beyond';

type Truth = any;

interface Loaded {
  readonly waste: MemoryWaste;
  readonly truth: Truth;
  /** What the independent reader found in the same dump. */
  readonly count: Truth;
  readonly graph: ObjectGraph;
}

/** The memory analysis of the heap, as `memory` runs it, with every group and value of its waste listed. */
async function analysed(scenario: string): Promise<Loaded> {
  const file = join(BASE, scenario, 'heap.hprof.gz');
  const truth = JSON.parse(readFileSync(join(BASE, scenario, 'truth.json'), 'utf8'));
  const a = await analyseMemory(file, { waste: { topValues: 100_000, topGroups: 100_000 } });
  return { waste: a.summary.waste!, truth, count: truth.heapCount['heap.hprof.gz'], graph: a.graph };
}

/** jmap's shallow size of one instance of the class (its bytes over its instances). */
function jmapInstanceSize(truth: Truth, jmapName: string): number {
  const row = truth.histo['histo-live.txt'].classes[jmapName];
  return row.bytes / row.instances;
}

/** The holder as the independent reader names a static (`Class.FIELD (static)`), or the field as the program names it. */
const staticNamed = (holder: string) => `${holder} (static)`;

/** Empty collections by class, as the independent reader counts them: a HashSet's empty inner HashMap is a HashMap of its own there, part of the set here. */
function emptyByClassAsTheReaderCounts(waste: MemoryWaste): Record<string, number> {
  const by = Object.fromEntries(waste.emptyCollections.byClass.map((c) => [c.className, c.count]));
  return { ...by, 'java.util.HashMap': (by['java.util.HashMap'] ?? 0) + (by['java.util.HashSet'] ?? 0) };
}

describe('memory waste of a real JVM that wastes known amounts (memory-beyond/waste)', { timeout: 120_000 }, () => {
  let w: Loaded;
  beforeAll(async () => {
    w = await analysed('waste');
  });

  test('the shares are of the whole heap the graph sized', () => {
    let total = 0;
    for (let i = 0; i < w.graph.objects; i++) total += w.graph.shallow[i]!;
    expect(w.waste.heapBytes).toBe(total);
    for (const k of WASTE_KINDS) expect(w.waste[k].shareOfHeap).toBeCloseTo(w.waste[k].wastedBytes / total, 12);
    expect(w.waste.wastedBytes).toBe(WASTE_KINDS.reduce((t, k) => t + w.waste[k].wastedBytes, 0));
  });

  test('every duplicate value of the program: its copies, its value arrays and the field that holds them', () => {
    for (const v of w.truth.duplicateStrings.values) {
      const found = w.waste.duplicateStrings.values.find((d) => d.value === v.value);
      expect(found, v.value).toBeDefined();
      expect(found!.copies).toBe(v.copies);
      expect(found!.valueArrays).toBe(v.valueArrays);
      expect(found!.length).toBe(v.length);
      expect(found!.holders[0]).toMatchObject({ holder: v.holder, objects: v.copies, jdk: false });
    }
    // The same totals as the independent reader of the dump (the JDK's own duplicates included).
    const d = w.count.duplicateStrings;
    expect(w.waste.duplicateStrings).toMatchObject({
      strings: d.strings,
      distinctValues: d.distinctValues,
      valuesHeldMoreThanOnce: d.valuesHeldMoreThanOnce,
      extraCopies: d.extraCopies,
    });
  });

  test('a dedup saves every String but one, and every value array but one: copies sharing one array save only their Strings', () => {
    const stringSize = jmapInstanceSize(w.truth, 'java.lang.String');
    // A Latin-1 byte[] of n characters under the layout the graph sized with: a 16-byte header, 8-byte alignment.
    expect(w.graph.sizeModel?.summary).toMatch(/16 for arrays\), 8-byte alignment/);
    const bytesArray = (n: number) => Math.ceil((16 + n) / 8) * 8;
    for (const v of w.truth.duplicateStrings.values) {
      const found = w.waste.duplicateStrings.values.find((d) => d.value === v.value)!;
      expect(found.wastedBytes, v.value).toBe((v.copies - 1) * stringSize + (v.valueArrays - 1) * bytesArray(v.length));
    }
    const shared = w.truth.duplicateStrings.values.find((v: Truth) => v.valueArrays === 1);
    expect(w.waste.duplicateStrings.values.find((d) => d.value === shared.value)!.wastedBytes).toBe((shared.copies - 1) * stringSize);
  });

  test('the values held most often come first, as the independent reader lists them; the holders over all values name the program fields first', () => {
    const values = w.waste.duplicateStrings.values;
    for (let i = 1; i < values.length; i++) expect(values[i - 1]!.copies).toBeGreaterThanOrEqual(values[i]!.copies);
    const top = w.count.duplicateStrings.top as Array<{ value: string; copies: number; valueArrays: number }>;
    expect(values.slice(0, top.length).map((v) => v.copies)).toEqual(top.map((t) => t.copies));
    // Where the copies differ from the next value's, the value is the reader's too.
    for (const [i, t] of top.entries()) if (top[i + 1]?.copies !== t.copies && top[i - 1]?.copies !== t.copies) expect(values[i]!.value).toBe(t.value);
    const programHolders = new Set(w.truth.duplicateStrings.values.map((v: Truth) => v.holder));
    expect(new Set(w.waste.duplicateStrings.holders.slice(0, programHolders.size).map((h) => h.holder))).toEqual(programHolders);
  });

  test('empty collections by class and holding field', () => {
    for (const e of w.truth.emptyCollections.byHolder) {
      const g = w.waste.emptyCollections.groups.find((x) => x.className === e.class && x.holder === e.holder);
      expect(g, `${e.class} ${e.holder}`).toBeDefined();
      expect(g!.count).toBe(e.count);
      expect(g!.jdk).toBe(false);
    }
    const byClass = emptyByClassAsTheReaderCounts(w.waste);
    for (const [cls, c] of Object.entries<Truth>(w.count.emptyCollections)) expect(byClass[cls] ?? 0, cls).toBe(c.count);
  });

  test("an empty collection's bytes: itself and the table only it holds, not the shared empty array", () => {
    const arrayList = jmapInstanceSize(w.truth, 'java.util.ArrayList');
    const objectArray = (n: number) => Math.ceil((16 + 4 * n) / 8) * 8; // compressed references
    const group = (holder: string) => w.waste.emptyCollections.groups.find((g) => g.holder === holder)!;
    expect(group('com.example.catalog.Product.tags')).toMatchObject({ count: 4000, wastedBytes: 4000 * arrayList, slots: 0 });
    expect(group('com.example.catalog.Customer.addresses')).toMatchObject({ count: 300, wastedBytes: 300 * (arrayList + objectArray(10)), slots: 3000 });
    // A set with its inner map.
    const set = jmapInstanceSize(w.truth, 'java.util.HashSet');
    const map = jmapInstanceSize(w.truth, 'java.util.HashMap');
    expect(group('com.example.catalog.Customer.segments')).toMatchObject({ className: 'java.util.HashSet', count: 1200, wastedBytes: 1200 * (set + map) });
  });

  test('sparse maps: 200 with 3 entries in 1024 slots; the full map of the control is not sparse', () => {
    const s = w.truth.sparseHashMaps;
    const g = w.waste.sparseCollections.groups.find((x) => x.holder === s.holder);
    expect(g).toMatchObject({ className: s.class, count: s.count, entries: s.count * s.size, slots: s.count * s.tableLength, jdk: false });
    expect(g!.fillRatio).toBeCloseTo(s.fillRatio, 12);
    expect(w.waste.sparseCollections.groups.some((x) => x.holder.startsWith(s.control.holder))).toBe(false);
    // The independent reader's rule is this one's, for HashMaps.
    expect(w.waste.sparseCollections.groups.filter((x) => x.className === 'java.util.HashMap').reduce((t, x) => t + x.count, 0)).toBe(
      w.count.sparseHashMaps.count,
    );
  });

  test("boxed numbers in the program's lists; the JDK's caches of boxes are said apart, the unboxed control is not counted", () => {
    const integer = jmapInstanceSize(w.truth, 'java.lang.Integer');
    const long = jmapInstanceSize(w.truth, 'java.lang.Long');
    for (const b of w.truth.boxedInCollections.filter((x: Truth) => x.holder !== undefined)) {
      const g = w.waste.boxedInCollections.groups.find((x) => x.holder === staticNamed(b.holder) && x.boxedClass === b.boxedClass);
      expect(g, b.holder).toMatchObject({ collectionClass: b.collection, count: b.count, jdk: false });
      expect(g!.wastedBytes).toBe(b.count * (b.boxedClass === 'java.lang.Integer' ? integer - 4 : long - 8));
    }
    const control = w.truth.boxedInCollections.find((x: Truth) => x.control !== undefined).control;
    expect(w.waste.boxedInCollections.groups.some((g) => g.holder.startsWith(control))).toBe(false);
    // The caches the independent reader's naive count takes in: here, apart.
    const cached = Object.entries<Truth>(w.count.boxedInCollections).reduce(
      (t, [, c]) => t + Object.entries<number>(c.byHolder).reduce((u, [h, n]) => u + (/\$\w*Cache\./.test(h) ? n : 0), 0),
      0,
    );
    expect(w.waste.boxedInCollections.inJdkCaches).toBeGreaterThanOrEqual(cached);
    expect(w.waste.boxedInCollections.groups.some((g) => /Cache/.test(g.holder))).toBe(false);
  });

  test('all-zero arrays by shape and holder; arrays of zeros but one byte are not counted', () => {
    const shapes = Object.fromEntries(w.waste.zeroArrays.byShape.map((s) => [s.shape, s.count]));
    const holders = Object.fromEntries(w.waste.zeroArrays.holders.map((h) => [h.holder, h.objects]));
    for (const z of w.truth.zeroArrays) {
      if (z.allZero) {
        expect(shapes[`${z.class.replace('[]', '')}[${z.length}]`], z.holder).toBe(z.count);
        expect(holders[staticNamed(z.holder)], z.holder).toBe(z.count);
      } else expect(holders[staticNamed(z.holder)], z.holder).toBeUndefined();
    }
    expect(w.waste.zeroArrays.count).toBe(w.count.zeroArrays.count);
    const thumbnails = w.waste.zeroArrays.byShape.find((s) => s.shape === 'byte[4096]')!;
    expect(thumbnails.bytes).toBe(250 * Math.ceil((16 + 4096) / 8) * 8);
  });

  test('a dump read whole leaves nothing unsaid: no notes', () => {
    expect(w.waste.notes).toEqual([]);
  });

  test('a dump cut short: the waste of what was read, and the cut said in its notes', async () => {
    const whole = gunzipSync(readFileSync(join(BASE, 'waste', 'heap.hprof.gz')));
    const cut = join(scratchDir('waste-cut'), 'heap.hprof');
    writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
    const waste = (await analyseMemory(cut, { waste: true })).summary.waste!;
    expect(waste.notes).toContainEqual(expect.stringMatching(/^the dump is cut short \(.*\): what it lost is not counted$/));
    expect(waste.wastedBytes).toBeGreaterThan(0);
    expect(waste.wastedBytes).toBeLessThan(w.waste.wastedBytes);
  });
});

describe('memory waste of the negative control (memory-beyond/waste-control): only the JDK baseline', { timeout: 120_000 }, () => {
  let c: Loaded;
  let programValues: string[];
  beforeAll(async () => {
    c = await analysed('waste-control');
    programValues = JSON.parse(readFileSync(join(BASE, 'waste', 'truth.json'), 'utf8')).duplicateStrings.values.map((v: Truth) => v.value);
  });

  test("the program made none: every holder of every kind is the JDK's own, a constant pool's or no loaded object", () => {
    expect(c.truth.programWaste).toMatchObject({ duplicateStrings: 0, emptyCollections: 0, sparseHashMaps: 0, boxedInCollections: 0, zeroArrays: 0 });
    const holders = [
      ...c.waste.duplicateStrings.holders.map((h) => h.holder),
      ...c.waste.emptyCollections.groups.map((g) => g.holder),
      ...c.waste.sparseCollections.groups.map((g) => g.holder),
      ...c.waste.boxedInCollections.groups.map((g) => g.holder),
      ...c.waste.zeroArrays.holders.map((h) => h.holder),
    ];
    expect(holders.length).toBeGreaterThan(0);
    // main's `args`, which the launcher fills, holds a copy of a value the JVM holds too: the launcher's, not the program's.
    const launcher = (h: string) => /^a local variable of fixture\.beyond\.WasteControl\.main\(/.test(h);
    const program = holders.filter((h) => h !== NO_REFERRER && !launcher(h) && !/^(?:java|javax|jdk|sun|com\.sun)\./.test(h));
    // The program's own class holds literals in its constant pool: the interned copy, never the wasteful one.
    expect(program.filter((h) => !h.endsWith('.<resolved_references> (static)'))).toEqual([]);
    expect(c.waste.duplicateStrings.holders.filter((h) => program.includes(h.holder)).every((h) => h.jdk)).toBe(true);
    for (const held of c.truth.holds) expect(holders.some((h) => h.startsWith(held.holder))).toBe(false);
  });

  test("the JDK's baseline is what the independent reader found", () => {
    const d = c.count.duplicateStrings;
    expect(c.waste.duplicateStrings).toMatchObject({ valuesHeldMoreThanOnce: d.valuesHeldMoreThanOnce, extraCopies: d.extraCopies });
    expect(c.waste.duplicateStrings.values.some((v) => programValues.includes(v.value))).toBe(false);
    const byClass = emptyByClassAsTheReaderCounts(c.waste);
    for (const [cls, e] of Object.entries<Truth>(c.count.emptyCollections)) expect(byClass[cls] ?? 0, cls).toBe(e.count);
    expect(c.waste.sparseCollections.groups.filter((g) => g.className === 'java.util.HashMap')).toHaveLength(c.count.sparseHashMaps.count);
    expect(c.waste.zeroArrays.count).toBe(c.count.zeroArrays.count);
    expect(c.waste.boxedInCollections.inJdkCaches).toBeGreaterThan(0);
    // The system properties are never empty in a running JVM: a Properties counts what its own map holds (JDK 9+), not its Hashtable part.
    expect(c.waste.emptyCollections.groups.filter((g) => g.className === 'java.util.Properties')).toEqual([]);
  });
});

describe('the proposed threshold of "waste is a large share of the heap"', { timeout: 120_000 }, () => {
  let waste: Loaded;
  let control: Loaded;
  beforeAll(async () => {
    [waste, control] = await Promise.all([analysed('waste'), analysed('waste-control')]);
  });

  const defaults = Object.fromEntries(Object.entries(WASTE_SHARE_OPTIONS).map(([k, o]) => [k, o.default])) as unknown as WasteShareThresholds;

  test("each option's default fits its own type and range", () => {
    for (const [name, o] of Object.entries(WASTE_SHARE_OPTIONS)) {
      if (o.type === 'boolean') expect(typeof o.default, name).toBe('boolean');
      else {
        expect(typeof o.default, name).toBe('number');
        if (o.type === 'integer') expect(Number.isInteger(o.default), name).toBe(true);
        expect(o.default, name).toBeGreaterThanOrEqual(o.min);
        if ('max' in o) expect(o.default, name).toBeLessThanOrEqual(o.max);
      }
    }
  });

  test("the fixture's waste is a large share of its small heap; the control's is the JDK's, not counted", () => {
    const t = { ...defaults, minWastedBytes: 0 };
    const v = wasteShare(waste.waste, t);
    expect(v.exceeds).toBe(true);
    expect(v.kinds).toEqual(expect.arrayContaining(['sparseCollections', 'zeroArrays']));
    expect(wasteShare(control.waste, t)).toMatchObject({ exceeds: false, kinds: [] });
    // Counting the JDK's own brings the control no nearer the share: it is small.
    expect(wasteShare(control.waste, { ...t, countJdkHolders: true }).shareOfHeap).toBeLessThan(t.minShareOfHeap);
  });

  test('a small heap wastes too little to matter: the bytes threshold holds the finding back', () => {
    expect(waste.waste.wastedBytes).toBeLessThan(defaults.minWastedBytes);
    expect(wasteShare(waste.waste, defaults).exceeds).toBe(false);
  });
});
