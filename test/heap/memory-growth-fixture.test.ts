/**
 * `memory --baseline` on the growth fixture (fixtures/heap/memory-beyond/growth/: one JVM dumped at
 * three moments, jmap -histo:live beside each dump): the leaking class grows by what the histograms
 * say, its holder is the static field the program put it in (truth.json) and grows too, and the
 * control class, whose objects are replaced but not added, is not reported as growing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';

import { runCli, scratchDir } from '../helpers.js';

const DIR = 'fixtures/heap/memory-beyond/growth';
const truth = JSON.parse(readFileSync(join(DIR, 'truth.json'), 'utf8'));
const heap = (n: number) => join(DIR, `heap-${n}.hprof.gz`);

/** jmap -histo:live's rows by class name (as the JVM names it: `[B`, `com.acme.X`), read here from the text, not from truth.json. */
function histo(n: number): Map<string, { instances: number; bytes: number }> {
  const rows = new Map<string, { instances: number; bytes: number }>();
  for (const line of readFileSync(join(DIR, `histo-live-${n}.txt`), 'utf8').split('\n')) {
    const m = /^\s*\d+:\s+(\d+)\s+(\d+)\s+(\S+)/.exec(line);
    if (m === null) continue;
    const e = rows.get(m[3]!) ?? { instances: 0, bytes: 0 };
    rows.set(m[3]!, { instances: e.instances + Number(m[1]), bytes: e.bytes + Number(m[2]) });
  }
  return rows;
}

const ajv = new Ajv2020.default({ allErrors: true, strict: true, allowUnionTypes: true });
const validate = ajv.compile(JSON.parse(readFileSync('docs/memory.schema.json', 'utf8')));

async function growth(...heaps: number[]) {
  const args = heaps.slice(0, -1).flatMap((n) => ['--baseline', heap(n)]);
  const r = await runCli(['memory', '-f', 'json', '--no-progress', ...args, heap(heaps[heaps.length - 1]!)]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const doc = JSON.parse(r.stdout);
  // dumpsleuth.memory/1 with its additive growth section.
  expect(validate(doc), ajv.errorsText(validate.errors)).toBe(true);
  return doc.growth;
}

type ClassJson = { class: string; instances: number[]; shallow: number[]; change: { instances: number; shallow: number } };
type HolderJson = { heldBy?: string; retained: Array<number | null>; holds: Array<{ class: string; instances: number; ofInstances: number }> };

describe('memory --baseline on three dumps of one leaking JVM', { timeout: 120_000 }, () => {
  const leak: string = truth.leak.class;
  const holderName = `${truth.leak.holderClass}.${truth.leak.holderField} (static)`;

  for (const [from, to] of [
    [1, 2],
    [2, 3],
    [1, 3],
  ] as const) {
    test(`heap-${from} to heap-${to}: the leak's growth is the histograms' difference, held by ${holderName}`, async () => {
      const g = await growth(from, to);
      const before = histo(from).get(leak)!;
      const after = histo(to).get(leak)!;
      const row = (g.classes as ClassJson[]).find((c) => c.class === leak)!;
      expect(row.change).toMatchObject({ instances: after.instances - before.instances, shallow: after.bytes - before.bytes });
      expect(row.change.instances).toBeGreaterThan(0);
      // The holder named: the static field the program added the entries to, holding every one of them, and grown itself.
      const holder = (g.holders as HolderJson[]).find((h) => h.holds.some((c) => c.class === leak))!;
      expect(holder.heldBy).toBe(holderName);
      expect(holder.holds.find((c) => c.class === leak)).toEqual({ class: leak, instances: after.instances, ofInstances: after.instances });
      expect(holder.retained.every((r) => r !== null)).toBe(true);
      expect(holder.retained[1]! - holder.retained[0]!).toBeGreaterThanOrEqual(after.bytes - before.bytes);
      expect(g.holders[0]).toBe(holder);
      // The control: every quote replaced by a new one, none added.
      const control = (g.classes as ClassJson[]).find((c) => c.class === truth.control.class);
      expect(control?.change.instances ?? 0).toBe(0);
      expect(control?.change.shallow ?? 0).toBe(0);
      expect((g.holders as HolderJson[]).flatMap((h) => h.holds.map((c) => c.class))).not.toContain(truth.control.class);
    });
  }

  test('three dumps: the trend per class, each moment as its histogram says', async () => {
    const g = await growth(1, 2, 3);
    expect(g.moments.map((m: { source: string }) => m.source)).toEqual([heap(1), heap(2), heap(3)]);
    const row = (g.classes as ClassJson[]).find((c) => c.class === leak)!;
    expect(row.instances).toEqual([1, 2, 3].map((n) => histo(n).get(leak)!.instances));
    expect(row.shallow).toEqual([1, 2, 3].map((n) => histo(n).get(leak)!.bytes));
    const holder = (g.holders as HolderJson[])[0]!;
    expect(holder.heldBy).toBe(holderName);
    const sizes = holder.retained as number[];
    expect(sizes[0]).toBeLessThan(sizes[1]!);
    expect(sizes[1]).toBeLessThan(sizes[2]!);
  });

  test('text: the growth comes after the leak suspects and before the tables and the tree', async () => {
    const r = await runCli(['memory', '--no-progress', '--baseline', heap(1), heap(2)]);
    const at = (s: string) => r.stdout.indexOf(s);
    expect(at('\nLeak suspects')).toBeGreaterThan(0);
    expect(at('\nGrowth over ')).toBeGreaterThan(at('\nLeak suspects'));
    expect(at('\nClasses by retained size')).toBeGreaterThan(at('\nGrowth over '));
    expect(at('\nBiggest retainers')).toBeGreaterThan(at('\nClasses by retained size'));
    expect(r.stdout).toContain(`${holderName}: java.util.HashMap$Node[]`);
    expect(r.stdout).toMatch(new RegExp(`\\+2,000 +\\+46\\.9 KiB .* ${leak.replace(/\./g, '\\.')}\\n`));
  });
});

describe('memory --baseline: negative controls', { timeout: 120_000 }, () => {
  test('a heap compared with itself: nothing grew, no holder', async () => {
    const g = await growth(2, 2);
    expect(g.changedClasses).toBe(0);
    expect(g.classes).toEqual([]);
    expect(g.holders).toEqual([]);
    const r = await runCli(['memory', '--no-progress', '--baseline', heap(2), heap(2)]);
    expect(r.stdout).toContain('nothing grew: no class has more instances or shallow bytes');
  });

  test('two programs, a newer dump written first, a V8 snapshot against an HPROF: refused in one line, saying why', async () => {
    for (const [older, newer, why] of [
      [heap(2), 'fixtures/heap/memory-beyond/waste/heap.hprof.gz', /are not dumps of one program: they share \d+ of the \d+ application classes/],
      [heap(3), heap(2), /heap-2\.hprof\.gz was written before its baseline .*heap-3\.hprof\.gz, by their headers/],
      [heap(2), 'fixtures/heap-v8/markers.heapsnapshot.gz', /are not dumps of one program: .* is a Java heap dump \(HPROF\), .* a V8 heap snapshot/],
    ] as const) {
      const r = await runCli(['memory', '--no-progress', '--baseline', older, newer]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(why);
      expect(r.stderr.split('\n')[0]).toMatch(/^error: /);
    }
  });

  test('an older dump cut short: the growth section says its figures are of the part read, and the JSON marks it', async () => {
    const dir = scratchDir('growth-cut');
    const cut = join(dir, 'heap-1-cut.hprof');
    const whole = gunzipSync(readFileSync(heap(1)));
    writeFileSync(cut, whole.subarray(0, Math.floor(whole.length * 0.6)));
    const text = await runCli(['memory', '--no-progress', '--baseline', cut, heap(2)]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/\n {2}Incomplete: .*heap-1-cut\.hprof was read only in part \(the heap dump ends in the middle of a record/);
    const json = JSON.parse((await runCli(['memory', '-f', 'json', '--no-progress', '--baseline', cut, heap(2)])).stdout);
    expect(json.growth.moments.map((m: { complete: boolean }) => m.complete)).toEqual([false, true]);
  });

  test("the budget of the newer dump leaves out what the older dump's analysis keeps meanwhile", async () => {
    // 202 MiB: heap-1's analysis fits (about 201.8 MiB), heap-2's (about 202.3 MiB) does not, still less beside heap-1's kept tree.
    const r = await runCli(['memory', '--no-progress', '--max-memory', '202m', '--baseline', heap(1), heap(2)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: cannot analyse the memory of \S*heap-2\.hprof\.gz: .* more than --max-memory 202\.0 MiB less the [\d.]+ KiB the older dumps' analyses keep/,
    );
  });

  test('two heaps without --baseline: a usage error naming it', async () => {
    const r = await runCli(['memory', heap(1), heap(2)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/memory reads one heap dump, and was given 2\n.*--baseline <older> <newer>/);
  });
});

describe('memory --baseline on two V8 heap snapshots of one Node process', { timeout: 120_000 }, () => {
  const V8 = 'fixtures/heap-v8/growth';
  const v8Truth = JSON.parse(readFileSync(join(V8, 'truth.json'), 'utf8'));

  test("the leak's growth is what the process counted, with the Map that holds it; the control does not grow", async () => {
    const r = await runCli(['memory', '-f', 'json', '--no-progress', '--baseline', join(V8, 'growth-1.heapsnapshot.gz'), join(V8, 'growth-2.heapsnapshot.gz')]);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(validate(doc), ajv.errorsText(validate.errors)).toBe(true);
    const g = doc.growth;
    const [first, second] = v8Truth.moments as Array<Record<string, number>>;
    const leak = (g.classes as ClassJson[]).find((c) => c.class === v8Truth.leak.class)!;
    expect(leak.instances).toEqual([first![v8Truth.leak.class], second![v8Truth.leak.class]]);
    expect((g.classes as ClassJson[]).find((c) => c.class === v8Truth.control.class)?.change.instances ?? 0).toBe(0);
    const holder = (g.holders as HolderJson[]).find((h) => h.holds.some((c) => c.class === v8Truth.leak.class))!;
    expect(holder.holds.find((c) => c.class === v8Truth.leak.class)).toMatchObject({ instances: second![v8Truth.leak.class] });
    // The Map's table, on the path from the root.
    expect((holder as unknown as { path: Array<{ class: string }> }).path.map((s) => s.class)).toContain('Map');
    expect(holder.retained[0]).not.toBeNull();
    expect(holder.retained[1]! - holder.retained[0]!).toBeGreaterThan(0);
  });
});
