/**
 * One JVM never contradicts itself: its banner, its start time and its threads' ids. Checked on
 * the real-JVM fixtures (every incident's dumps and heap are one JVM; any two incidents are two),
 * on the corpus (every labelled series is one JVM) and end to end: nothing of two JVMs is merged.
 */
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, test } from 'vitest';

import { analysisPlan, loadAnyInput } from '../../src/analysis/load-incident.js';
import { loadThreadInput } from '../../src/analysis/load-threads.js';
import { sightingOfHeap } from '../../src/reconstruct/heap-identity.js';
import { REPORT_FORMATS } from '../../src/report/renderers.js';
import { groupByJvm, type JvmSighting, sightingOfDump, whyNotOneJvm } from '../../src/threads/jvm-identity.js';
import { runCli, scratchDir } from '../helpers.js';

const sighting = (
  label: string,
  fields: Partial<JvmSighting>,
  threads: Array<[string, { name: string; nativeId?: string; address?: bigint }]> = [],
): JvmSighting => ({
  label,
  ...fields,
  threads: new Map(threads),
});

describe('whyNotOneJvm', () => {
  const ref = (nid: string, address: bigint) =>
    ['#2', { name: 'Reference Handler', nativeId: nid, address }] as [string, { name: string; nativeId: string; address: bigint }];
  const fin = (nid: string) => ['#3', { name: 'Finalizer', nativeId: nid }] as [string, { name: string; nativeId: string }];

  test('two banners, two vendors, two start times', async () => {
    expect(whyNotOneJvm(sighting('a', { jvm: 'OpenJDK 64-Bit Server VM (17.0.2+8)' }), sighting('b', { jvm: 'OpenJDK 64-Bit Server VM (21.0.1+12)' }))).toMatch(
      /a was printed by .*17.*, b by .*21/,
    );
    expect(whyNotOneJvm(sighting('a', { vendor: 'HotSpot' }), sighting('b', { vendor: 'JRockit' }))).toMatch(/HotSpot dump, b a JRockit one/);
    expect(whyNotOneJvm(sighting('a', { startMs: 0 }), sighting('b', { startMs: 3_600_000 }))).toMatch(/started at 1970-01-01 00:00:00.*01:00:00/);
    // Within the tolerance: one JVM, seen at two moments.
    expect(whyNotOneJvm(sighting('a', { startMs: 0 }), sighting('b', { startMs: 2_000 }))).toBeUndefined();
  });

  test('a thread id with another native id or address, and none that agrees', async () => {
    expect(whyNotOneJvm(sighting('a', {}, [ref('0x10', 0x7f00n)]), sighting('b', {}, [ref('0x2f', 0x7f00n)]))).toMatch(
      /Java thread #2 \("Reference Handler"\) has native id 0x10 in a and 0x2f in b/,
    );
    expect(whyNotOneJvm(sighting('a', {}, [ref('0x10', 0x7f00n)]), sighting('b', {}, [ref('0x10', 0x7e00n)]))).toMatch(
      /JavaThread address 0x7f00 in a and 0x7e00 in b/,
    );
  });

  test('one disagreement among agreements is not another JVM; two are', async () => {
    const a = sighting('a', {}, [ref('0x10', 0x7f00n), fin('0x11'), ['#4', { name: 'x', nativeId: '0x12' }]]);
    expect(whyNotOneJvm(a, sighting('b', {}, [ref('0x10', 0x7f00n), fin('0x99'), ['#4', { name: 'x', nativeId: '0x12' }]]))).toBeUndefined();
    expect(whyNotOneJvm(a, sighting('b', {}, [ref('0x10', 0x7f00n), fin('0x99'), ['#4', { name: 'x', nativeId: '0x98' }]]))).toMatch(/Finalizer/);
  });

  test('nothing to compare is no contradiction', async () => {
    expect(whyNotOneJvm(sighting('a', {}), sighting('b', {}))).toBeUndefined();
    expect(whyNotOneJvm(sighting('a', {}, [ref('0x10', 0x7f00n)]), sighting('b', {}, [['#9', { name: 'other', nativeId: '0x5' }]]))).toBeUndefined();
  });

  test('groupByJvm keeps the order given and says why a group is another JVM', async () => {
    const { groups, reasons } = groupByJvm([sighting('a', { startMs: 0 }), sighting('b', { startMs: 5_000_000 }), sighting('c', { startMs: 1_000 })]);
    expect(groups).toEqual([[0, 2], [1]]);
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(/a started at .* b at/);
  });
});

describe('on the real-JVM fixture incidents', { timeout: 120_000 }, () => {
  const incidents = readdirSync('fixtures/incidents').filter((d) => existsSync(join('fixtures/incidents', d, 'heap.hprof.gz')));
  const plan = analysisPlan([]);
  // Both tests read every incident (three dumps and a heap each): read once, shared.
  const loaded = new Map<string, ReturnType<typeof read>>();
  const load = (dir: string) => loaded.get(dir) ?? loaded.set(dir, read(dir)).get(dir)!;
  const read = async (dir: string) => {
    const dumps = [];
    for (const n of [1, 2, 3]) dumps.push(...(await loadThreadInput(join('fixtures/incidents', dir, `dump-${n}.txt`))).file.dumps);
    const heap = await loadAnyInput(join('fixtures/incidents', dir, 'heap.hprof.gz'), plan);
    if (heap.kind !== 'heap') throw new Error('not a heap');
    return { dumps: dumps.map((d, i) => sightingOfDump(d, `${dir} dump ${i + 1}`)), heap: sightingOfHeap(heap.heap.view, `${dir} heap`) };
  };

  test('each incident is one JVM: its three dumps and its heap contradict each other nowhere', async () => {
    for (const dir of incidents) {
      const { dumps, heap } = await load(dir);
      expect(groupByJvm([...dumps, heap]).groups, dir).toHaveLength(1);
      // And they had something to compare: the heap's threads carry their JavaThread addresses.
      expect(heap.threads.size, dir).toBeGreaterThan(5);
    }
  });

  test('any two incidents are two JVMs, dump against dump and heap against dump', async () => {
    const all = [];
    for (const dir of incidents) all.push({ dir, ...(await load(dir)) });
    let pairs = 0;
    for (const a of all) {
      for (const b of all) {
        if (a === b) continue;
        expect(whyNotOneJvm(a.dumps[0]!, b.dumps[0]!), `${a.dir} / ${b.dir}`).toBeDefined();
        expect(whyNotOneJvm(a.heap, b.dumps[0]!), `${a.dir} heap / ${b.dir} dumps`).toBeDefined();
        pairs++;
      }
    }
    expect(pairs).toBe(incidents.length * (incidents.length - 1));
  });
});

const corpus = '../shared/corpus/threaddumps';
const haveCorpus = existsSync(join(corpus, 'LABELS.json'));
// Skipped silently without it: test/global-setup.ts says once per run that ../shared is absent.

describe.skipIf(!haveCorpus)('on the corpus', { timeout: 120_000 }, () => {
  const labels = haveCorpus
    ? (JSON.parse(readFileSync(join(corpus, 'LABELS.json'), 'utf8')) as
        { cases: Array<{ case: string; files?: string[] }> } | Array<{ case: string; files?: string[] }>)
    : [];
  const cases = Array.isArray(labels) ? labels : labels.cases;

  test('every labelled series and every file of several dumps is one JVM', async () => {
    let checked = 0;
    for (const c of cases) {
      const dumps = [];
      for (const f of c.files ?? [c.case]) {
        try {
          dumps.push(...(await loadThreadInput(join(corpus, f))).file.dumps);
        } catch {
          // not a dump (the corpus's non-dump cases)
        }
      }
      if (dumps.length < 2) continue;
      const { groups, reasons } = groupByJvm(dumps.map((d, i) => sightingOfDump(d, `dump ${i + 1}`)));
      expect(groups, `${c.case}: ${reasons.join('; ')}`).toHaveLength(1);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(15);
  });

  test('dumps of different corpus files are told apart where they hold anything to compare', async () => {
    const firsts: JvmSighting[] = [];
    for (const c of cases) {
      const f = (c.files ?? [c.case])[0]!;
      try {
        firsts.push(sightingOfDump((await loadThreadInput(join(corpus, f))).file.dumps[0]!, f));
      } catch {
        // not a dump
      }
    }
    let pairs = 0;
    let told = 0;
    for (let i = 0; i < firsts.length; i++) {
      for (let j = i + 1; j < firsts.length; j++) {
        pairs++;
        if (whyNotOneJvm(firsts[i]!, firsts[j]!) !== undefined) told++;
      }
    }
    console.log(`corpus: ${told} of ${pairs} pairs of different files told apart as two JVMs (${((told / pairs) * 100).toFixed(1)} %)`);
    expect(told / pairs).toBeGreaterThan(0.8);
  });
});

describe('end to end: two JVMs are never one analysis', { timeout: 120_000 }, () => {
  const A = 'fixtures/incidents/active-count-leak';
  const B = 'fixtures/incidents/healthy-light-load';

  test('two directories are two incidents: exit 2, pointing at batch', async () => {
    const r = await runCli(['analyze', A, B]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/are two directories, so two incidents; this command analyses one\n.*dumpsleuth batch/);
  });

  test('files of two JVMs: exit 2, the files grouped by JVM, with the reason', async () => {
    const r = await runCli(['analyze', `${A}/dump-1.txt`, `${A}/dump-2.txt`, `${B}/dump-1.txt`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`the thread dumps come from 2 JVMs, not one: {${A}/dump-1.txt, ${A}/dump-2.txt} and ${B}/dump-1.txt`);
    expect(r.stderr).toMatch(/\((?:the JVM of .* started at .*|.*a thread keeps its ids while the JVM lives)\)\n/);
  });

  test('many files of two JVMs: a few names per JVM, the rest counted, so the error stays one line', async () => {
    const d = scratchDir('many-jvms');
    const copies = Array.from({ length: 8 }, (_, k) => {
      const f = join(d, `a-${k + 1}.txt`);
      copyFileSync(`${A}/dump-1.txt`, f);
      return f;
    });
    const r = await runCli(['analyze', ...copies, `${B}/dump-1.txt`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`{${copies.slice(0, 5).join(', ')} and 3 more} and ${B}/dump-1.txt`);
    expect(r.stderr.split('\n')[0]!.length).toBeLessThan(1000);
  });

  test('one file across a restart: each JVM its own series, and a note says so', async () => {
    const dir = scratchDir('jvms');
    const file = join(dir, 'catalina.out');
    writeFileSync(
      file,
      [`${A}/dump-1.txt`, `${A}/dump-2.txt`, `${B}/dump-1.txt`, `${B}/dump-2.txt`].map((f) => readFileSync(f, 'utf8')).join('\nlog line between dumps\n'),
    );
    const doc = JSON.parse((await runCli(['analyze', '-f', 'json', '--fail-on', 'never', file])).stdout);
    expect(doc.dumps).toHaveLength(4);
    expect(doc.model.series.map((s: { dumps: number[] }) => s.dumps)).toEqual([
      [0, 1],
      [2, 3],
    ]);
    // The model orders dumps in time (B's were taken first); the note numbers them as in the file.
    expect(doc.model.notes.join('\n')).toMatch(
      /dumps 1, 2 of .*catalina\.out cannot come from the JVM of dumps 3, 4 of .*catalina\.out: the JVM of dump \d of .* started at/,
    );
  });

  test('a heap dump of another JVM beside the thread dumps: not lined up, no false leak, a note in every format', async () => {
    const dir = scratchDir('jvms');
    for (const n of [1, 2, 3]) copyFileSync(`${B}/dump-${n}.txt`, join(dir, `dump-${n}.txt`));
    copyFileSync(`${A}/heap.hprof.gz`, join(dir, 'heap.hprof.gz'));
    const doc = JSON.parse((await runCli(['analyze', '-f', 'json', '--fail-on', 'never', dir])).stdout);
    // The heap's counter is at its limit; with threads of another JVM it read as a critical leak.
    expect(doc.findings.map((f: { rule: string }) => f.rule)).not.toContain('active-count-leak');
    // What it can say: the counter is at its limit, and why the threads cannot tell leak from saturation.
    expect(doc.findings.find((f: { rule: string }) => f.rule === 'limit-saturated').message).toMatch(
      /The thread dumps given are not of this heap's JVM, so a leak cannot be told from saturation/,
    );
    // (Markdown escapes the `#`, HTML the quotes.)
    const note = /heap\.hprof\.gz is not of the JVM of the thread dumps: Java thread \\?#\d+ .{1,60} has JavaThread address/;
    expect(doc.model.notes.join('\n')).toMatch(note);
    for (const format of REPORT_FORMATS.filter((f) => f !== 'json'))
      expect((await runCli(['analyze', '-f', format, '--fail-on', 'never', dir])).stdout, format).toMatch(note);
    // The same heap with its own dumps is still the leak it is.
    expect(JSON.parse((await runCli(['analyze', '-f', 'json', '--fail-on', 'never', A])).stdout).findings.map((f: { rule: string }) => f.rule)).toContain(
      'active-count-leak',
    );
  });
});
