/**
 * The Growth screen (key 0), loaded as `ui` loads it, on heap dumps of one leaking program at two and
 * three moments (fixtures/heap/memory-beyond/growth: a JVM; fixtures/heap-v8/growth: a Node.js
 * process): it says what `memory --baseline` says (the same pipeline, analysis/memory-growth.ts), the
 * holder the program put its leak in (truth.json), and frames of it are golden files. Negative
 * controls: one heap dump has no Growth screen; dumps of two programs, or of two formats, get the
 * refusal on the screen, not a crash.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import chalk from 'chalk';
import { render } from 'ink-testing-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { compareHeaps } from '../../src/analysis/memory-growth.js';
import { App } from '../../src/ui/components/App.js';
import { loadIncidentData } from '../../src/ui/load-incident-data.js';
import { follow, initialState } from '../../src/ui/state/ui-state.js';
import type { UiData, UiScreen } from '../../src/ui/view-data.js';

const DIR = 'fixtures/heap/memory-beyond/growth';
const V8 = 'fixtures/heap-v8/growth';
const heap = (n: number) => join(DIR, `heap-${n}.hprof.gz`);
const truth = JSON.parse(readFileSync(join(DIR, 'truth.json'), 'utf8')) as {
  leak: { class: string; holderClass: string; holderField: string };
  control: { class: string };
};
const v8Truth = JSON.parse(readFileSync(join(V8, 'truth.json'), 'utf8')) as { leak: { class: string }; control: { class: string } };
const tick = () => new Promise((r) => setImmediate(() => setTimeout(r, 0)));

const load = async (...paths: string[]) => (await loadIncidentData({ paths, memory: 'auto' }, () => undefined)).data;
const growthOf = (data: UiData): UiScreen | undefined => data.screens.find((s) => s.id === 'growth');

/** The frame after the keys, one per write with a yield after each (colours off, ink-testing-library's 100 columns). */
async function frameAfter(data: UiData, keys: readonly string[]): Promise<string> {
  const ui = render(<App data={data} />);
  await tick();
  for (const k of keys) {
    ui.stdin.write(k);
    await tick();
  }
  const frame = ui.lastFrame() ?? '';
  ui.unmount();
  return frame + '\n';
}

describe('the Growth screen', { timeout: 120_000 }, () => {
  const level = chalk.level;
  let two: UiData;
  let three: UiData;
  beforeAll(async () => {
    chalk.level = 0;
    two = await load(heap(1), heap(2));
    three = await load(heap(1), heap(2), heap(3));
  });
  afterAll(() => {
    chalk.level = level;
  });

  it('is the tenth screen, on key 0, after the screens every analysis has', async () => {
    expect(three.screens.map((s) => s.id)).toEqual([
      'overview',
      'findings',
      'threads',
      'executors',
      'counters',
      'locks',
      'series',
      'memory',
      'calls',
      'growth',
    ]);
    const frame = await frameAfter(three, ['0']);
    expect(frame).toMatch(/ 0 Growth\s/);
    expect(frame).toMatch(/› Growth over 3 heap dumps/);
  });

  it('names the holder the program put its leak in, grown, with its path from a GC root through that static field', () => {
    const rows = growthOf(three)!.rows;
    const holders = rows.filter((r) => r.key.startsWith('growth:holder:'));
    expect(holders.length).toBeGreaterThan(0);
    const first = holders[0]!;
    expect(first.text).toContain(`HOLDER ${truth.leak.holderClass}.${truth.leak.holderField} (static)`);
    expect(first.text).toMatch(/ -> .* -> .*\(\+/);
    expect(first.tone).toBe('alert');
    const detail = first.detail.map((l) => l.text);
    expect(detail.some((t) => t.includes(truth.leak.class))).toBe(true);
    expect(detail.some((t) => /^ +GC root \(/.test(t))).toBe(true);
    expect(detail.some((t) => t.includes(`static ${truth.leak.holderField} -> `))).toBe(true);
    // The holder opens its row in the Memory screen's tree (the newest heap's).
    const link = first.detail.find((l) => l.link?.screen === 'memory')!.link!;
    const s = follow(three, initialState(three, 20), link);
    expect(three.screens[s.screen]!.id).toBe('memory');
  });

  it('lists the classes as memory --baseline does: by growth, the instances at each dump, the control class not growing', async () => {
    const { growth } = await compareHeaps([heap(1), heap(2), heap(3)], {}, { update: () => undefined });
    const rows = growthOf(three)!.rows.filter((r) => r.key.startsWith('growth:class:'));
    const grown = growth.classes.filter((c) => c.shallow.at(-1)! > c.shallow[0]! || c.instances.at(-1)! > c.instances[0]!);
    expect(rows.map((r) => r.key)).toEqual(grown.slice(0, 40).map((c) => `growth:class:${c.className}`));
    const leak = growth.classes.find((c) => c.className === truth.leak.class)!;
    const leakRow = rows.find((r) => r.key === `growth:class:${truth.leak.class}`)!;
    expect(leakRow.text).toContain(`(${leak.instances.map((n) => n.toLocaleString('en-US')).join(' -> ')})`);
    expect(rows.some((r) => r.key === `growth:class:${truth.control.class}`)).toBe(false);
  });

  it('the Overview says what grew most, and opens the Growth screen; no note sends the reader to memory --baseline', () => {
    const overview = three.screens[0]!;
    const row = overview.rows.find((r) => r.key === 'growth')!;
    expect(row.text).toContain(`${truth.leak.holderClass}.${truth.leak.holderField} (static) grew most`);
    const s = follow(three, initialState(three, 20), row.detail.find((l) => l.link !== undefined)!.link!);
    expect(three.screens[s.screen]!.id).toBe('growth');
    expect(overview.rows.some((r) => r.text.includes('memory --baseline'))).toBe(false);
  });

  it('draws two dumps (golden)', async () => {
    await expect(await frameAfter(two, ['0'])).toMatchFileSnapshot('../golden/ui/growth-2.txt');
  });

  it('draws three dumps, the holder selected with its path (golden)', async () => {
    const frame = await frameAfter(three, ['0', 'j']);
    expect(frame).toMatch(/› +HOLDER /);
    await expect(frame).toMatchFileSnapshot('../golden/ui/growth-3.txt');
  });

  it('compares two V8 snapshots of one Node.js process, with no other screen to fill (golden)', async () => {
    const data = await load(join(V8, 'growth-1.heapsnapshot.gz'), join(V8, 'growth-2.heapsnapshot.gz'));
    const rows = growthOf(data)!.rows;
    expect(rows.some((r) => r.key === `growth:class:${v8Truth.leak.class}`)).toBe(true);
    expect(rows.some((r) => r.key === `growth:class:${v8Truth.control.class}`)).toBe(false);
    await expect(await frameAfter(data, ['0'])).toMatchFileSnapshot('../golden/ui/growth-v8.txt');
  });

  it('negative control: one heap dump has no Growth screen, and key 0 stays where it is', async () => {
    const one = await load(heap(1));
    expect(growthOf(one)).toBeUndefined();
    expect(one.screens[0]!.rows.some((r) => r.key === 'growth')).toBe(false);
    const frame = await frameAfter(one, ['0']);
    expect(frame).not.toContain('Growth');
    expect(frame).toMatch(/ 1 Overview /);
  });

  it('negative control: dumps of two programs are refused on the screen (golden), the other screens still there', async () => {
    const data = await load(heap(1), 'fixtures/heap/memory-beyond/waste/heap.hprof.gz');
    const rows = growthOf(data)!.rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]!.text).toMatch(/^Not compared: .* are not dumps of one program/);
    expect(rows[0]!.detail.some((l) => l.text.includes('give heap dumps of one program, older first: dumpsleuth ui <older> <newer>'))).toBe(true);
    expect(data.screens.find((s) => s.id === 'memory')!.rows.length).toBeGreaterThan(2);
    await expect(await frameAfter(data, ['0'])).toMatchFileSnapshot('../golden/ui/growth-refused.txt');
  });

  it('negative control: an HPROF and a V8 snapshot are refused as two formats', async () => {
    const data = await load(heap(1), join(V8, 'growth-2.heapsnapshot.gz'));
    expect(growthOf(data)!.rows[0]!.text).toMatch(/is a Java heap dump \(HPROF\), .* a V8 heap snapshot/);
  });
});
