/**
 * Shallow sizes under the layout of the JVM that wrote the dump, against `jmap -histo:live` of the
 * same process (fixtures/heap/layouts, made by fixtures/generate-layouts.sh from real JDK 8, 11, 17,
 * 21 and 25 JVMs, 64- and 32-bit, with and without compressed references and class pointers, with
 * 16-byte alignment and compact headers), and against the jmap histogram MAT keeps beside its JDK 6
 * dump (../shared/corpus/heap).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { ClassMetadata } from '../../src/heap/hprof/class-metadata.js';
import { hprofObjectGraph } from '../../src/heap/hprof/graph/hprof-graph.js';
import { sizeModelOf } from '../../src/heap/hprof/histogram-tally.js';
import { hprofHistogram } from '../../src/heap/hprof/hprof-histogram.js';
import { LayoutEvidence } from '../../src/heap/hprof/layout/layout-evidence.js';
import { chooseLayout } from '../../src/heap/hprof/layout/object-layout.js';
import { jmapName } from './jmap-histo.js';

const LAYOUTS = 'fixtures/heap/layouts';

/** jmap's rows: instances and bytes per class. */
function jmapRows(path: string): Map<string, { instances: number; bytes: number }> {
  const rows = new Map<string, { instances: number; bytes: number }>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const m = /^\s*\d+:\s+(\d+)\s+(\d+)\s+(\S+)/.exec(line);
    if (!m || m[3]!.startsWith('<')) continue; // JDK 6's permanent generation (<methodKlass>, ...): not in the dump
    const name = jmapName(m[3]!);
    const r = rows.get(name) ?? { instances: 0, bytes: 0 };
    r.instances += Number(m[1]);
    r.bytes += Number(m[2]);
    rows.set(name, r);
  }
  return rows;
}

/** Classes whose bytes differ from jmap's though their counts agree, and how many classes agree. */
async function againstJmap(dump: string, histo: string): Promise<{ agree: number; differ: string[]; sizeModel: string }> {
  const h = await hprofHistogram(dump);
  const ours = new Map(h.rows.map((r) => [r.className, r]));
  let agree = 0;
  const differ: string[] = [];
  for (const [name, j] of jmapRows(histo)) {
    const o = ours.get(name);
    // Counts differ only where the two snapshots of a live JVM do (see hprof-fixtures.test.ts): not a size question.
    if (o === undefined || o.instances !== j.instances) continue;
    if (o.shallowBytes === j.bytes) agree++;
    else differ.push(name);
  }
  return { agree, differ, sizeModel: h.sizeModel };
}

/** What each fixture's layout is, as its JVM's flags made it. */
const EXPECTED: Record<string, RegExp[]> = {
  jdk8: [
    /^shallow sizes under the layout of a 64-bit HotSpot, compressed references, 12-byte object header \(16 for arrays\), 8-byte alignment/,
    /JDK 7 to 14/,
  ],
  'jdk8-no-compressed-oops': [/8-byte references, 16-byte object header \(24 for arrays\)/, /JDK 7 to 14/],
  jdk11: [/compressed references, 12-byte object header/, /JDK 7 to 14/],
  'jdk11-align16': [/16-byte alignment/],
  'jdk11-no-compressed-oops': [/8-byte references, 16-byte object header \(24 for arrays\)/],
  jdk17: [/compressed references, 12-byte object header \(16 for arrays\), 8-byte alignment/, /JDK 15 and later/],
  'jdk17-32bit': [/32-bit HotSpot, 4-byte references, 8-byte object header \(12 for arrays\)/, /4-byte identifiers/],
  'jdk17-align16': [/16-byte alignment/, /every object id is a multiple of 16/],
  // JDK 15 and later keep class pointers compressed without compressed references.
  'jdk17-no-compressed-oops': [/8-byte references, 12-byte object header \(16 for arrays\)/],
  'jdk17-no-compressed-pointers': [/8-byte references, 16-byte object header \(24 for arrays\)/],
  jdk21: [/compressed references, 12-byte object header/, /JDK 15 and later/],
  'jdk21-no-compressed-oops': [/8-byte references, 12-byte object header/],
  jdk25: [/compressed references, 12-byte object header/],
  'jdk25-compact-headers': [/compressed references, 8-byte object header \(12 for arrays\)/],
  // From JDK 22 an array's elements start right after its length (JDK-8139457).
  'jdk25-no-compressed-pointers': [/8-byte references, 16-byte object header \(20 for arrays\)/],
};

/**
 * Explained differences: JDK 21 and later write two int[] whose lengths say more than jmap counts for
 * them; with compact headers, Throwable holds 4 bytes more than its fields (a hidden field that fits in
 * the padding of every other layout, so nothing else shows it).
 */
const EXPLAINED: Record<string, string[]> = {
  jdk21: ['int[]'],
  'jdk21-no-compressed-oops': ['int[]'],
  jdk25: ['int[]'],
  'jdk25-compact-headers': ['int[]', 'java.lang.InternalError'],
  'jdk25-no-compressed-pointers': ['int[]'],
};

describe('shallow sizes equal jmap -histo of the same JVM, in every layout', { timeout: 60_000 }, () => {
  const dirs = readdirSync(LAYOUTS).sort();
  it('has a fixture for each layout', () => {
    expect(dirs).toEqual(Object.keys(EXPECTED).sort());
  });
  for (const dir of dirs) {
    it(`${dir}: every class jmap counts alike has jmap's bytes, java.lang.Class objects included`, async () => {
      const { agree, differ, sizeModel } = await againstJmap(join(LAYOUTS, dir, 'heap.hprof.gz'), join(LAYOUTS, dir, 'histo-live.txt'));
      expect(differ).toEqual(EXPLAINED[dir] ?? []);
      expect(agree).toBeGreaterThan(200);
      for (const re of EXPECTED[dir]!) expect(sizeModel).toMatch(re);
    });
  }

  it("the object graph gives each class the histogram's bytes (one layout for both)", async () => {
    for (const dir of ['jdk8', 'jdk17-32bit', 'jdk25-compact-headers']) {
      const path = join(LAYOUTS, dir, 'heap.hprof.gz');
      const [h, g] = [await hprofHistogram(path), await hprofObjectGraph(path)];
      const bytes = new Map<string, number>();
      for (let i = 0; i < g.objects; i++) {
        const name = g.classNames[g.classOf[i]!]!;
        bytes.set(name, (bytes.get(name) ?? 0) + g.shallow[i]!);
      }
      for (const r of h.rows) expect(bytes.get(r.className), `${dir} ${r.className}`).toBe(r.shallowBytes);
      expect(sizeModelOf(g.sizeModel!)).toBe(h.sizeModel);
    }
  });
});

const MAT = join('..', 'shared', 'corpus', 'heap', 'eclipse-mat__mat');

describe.skipIf(!existsSync(MAT))("MAT's JDK 6 dump beside its jmap histogram (../shared/corpus/heap)", () => {
  it('every class counted alike has the bytes jmap gave it; class objects hold no statics before JDK 7', async () => {
    const dump = join(MAT, 'sun_jdk6_30_x64_compressedOops.hprof');
    const { agree, differ, sizeModel } = await againstJmap(dump, join(MAT, 'sun_jdk6_30_x64_compressedOops.notes.txt'));
    expect(differ).toEqual([]);
    expect(agree).toBe(155);
    expect(sizeModel).toMatch(/JDK 6 or older/);
    // jmap: 398 class objects of 104 bytes (13 of them in the permanent generation, which the dump leaves out).
    const h = await hprofHistogram(dump);
    const classes = h.rows.find((r) => r.className === 'java.lang.Class')!;
    expect(classes.shallowBytes / classes.instances).toBe(104);
  });

  it("the hprof agent's ids are not addresses: nothing is measured from them, and 4-byte ids mean a 32-bit JVM", async () => {
    const h = await hprofHistogram(join(MAT, 'oracle_jdk7_21_hprofagent.hprof'));
    expect(h.sizeModel).toMatch(/32-bit HotSpot/);
    expect(h.sizeModel).toMatch(/the object ids are not addresses/);
  });
});

describe('what the ids can and cannot say', () => {
  it('ids closer than any object: no address is trusted, and the defaults are said to be assumed', () => {
    const evidence = new LayoutEvidence();
    for (let id = 1; id <= 100; id++) evidence.primitiveArray(id, 1, 5);
    const layout = chooseLayout(8, evidence, new ClassMetadata());
    expect(layout.reasons.join('\n')).toMatch(/not addresses/);
    expect(layout.referenceBytes).toBe(4);
    expect(layout.arrayBaseBytes).toBe(16);
    expect(layout.reasons.join('\n')).toMatch(/compressed references assumed/);
  });

  it('object arrays 8 bytes per element and byte arrays 24 bytes in: wide references and class pointers', () => {
    const evidence = new LayoutEvidence();
    let at = 0x10000;
    for (let n = 3; n < 40; n++) {
      evidence.objectArray(at, n);
      at += 24 + 8 * n;
      evidence.primitiveArray(at, 1, n);
      at += Math.ceil((24 + n) / 8) * 8;
    }
    const layout = chooseLayout(8, evidence, new ClassMetadata());
    expect([layout.referenceBytes, layout.headerBytes, layout.arrayBaseBytes, layout.alignment]).toEqual([8, 16, 24, 8]);
  });
});
