/**
 * The Memory screen's memory-waste part, on the heap of a real JVM that made waste of known amounts
 * (fixtures/heap/memory-beyond/waste, truth.json): the waste the memory analysis finds (its default
 * limits) in the heap's summary that `ui` built. Golden frames of it; negative control: a summary
 * without waste draws no waste row.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import chalk from 'chalk';
import { render } from 'ink-testing-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { analyseIncident } from '../../src/analysis/analyse.js';
import { analyseMemory } from '../../src/heap/memory/analyse-memory.js';
import type { MemoryWaste } from '../../src/model/memory-waste.js';
import type { Model } from '../../src/model/model.js';
import { buildUiData } from '../../src/ui/build-view.js';
import { App } from '../../src/ui/components/App.js';
import { memoryWasteRows } from '../../src/ui/memory-waste-rows.js';
import type { UiData, UiRow } from '../../src/ui/view-data.js';

const DIR = 'fixtures/heap/memory-beyond/waste';
const FILE = join(DIR, 'heap.hprof.gz');
const truth = JSON.parse(readFileSync(join(DIR, 'truth.json'), 'utf8'));
const tick = () => new Promise((r) => setImmediate(() => setTimeout(r, 0)));

/** The waste of the heap, as the memory analysis finds it with its default limits. */
async function wasteOf(file: string): Promise<MemoryWaste> {
  return (await analyseMemory(file, { waste: true })).summary.waste!;
}

/** The model `ui` builds of the heap, its summary given `waste` (or none). */
function withWaste(model: Model, waste: MemoryWaste | undefined): Model {
  const [m] = model.memory;
  const { waste: _, ...summary } = m!.summary!;
  return { ...model, memory: [{ ...m!, summary: waste !== undefined ? { ...summary, waste } : summary }] };
}

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

const wasteRowsOf = (data: UiData): UiRow[] => data.screens.find((s) => s.id === 'memory')!.rows.filter((r) => r.key.startsWith('memory:0:waste'));

describe("the Memory screen's memory waste", { timeout: 120_000 }, () => {
  const level = chalk.level;
  let waste: MemoryWaste;
  let model: Model;
  let data: UiData;
  beforeAll(async () => {
    chalk.level = 0;
    waste = await wasteOf(FILE);
    const r = await analyseIncident({ paths: [FILE], limits: { memory: 'auto', retainerTree: true } });
    if (r.outcome !== 'analysed') throw new Error('the waste heap was not analysed');
    model = r.model;
    data = buildUiData(withWaste(model, waste), r.findings, FILE);
  });
  afterAll(() => {
    chalk.level = level;
  });

  it('says the total and its share of the heap, then a row per kind found, each opening to its biggest holders', () => {
    const rows = wasteRowsOf(data);
    const total = rows[0]!;
    expect(total.key).toBe('memory:0:waste');
    expect(total.text).toMatch(/^ {2}WASTE +\d+\.\d% /);
    expect(total.text).toContain(`${(waste.shareOfHeap * 100).toFixed(1)}%`);
    const kinds = rows.filter((r) => r.tree?.depth === 0);
    expect(kinds.map((r) => r.key.split(':')[3])).toEqual(['duplicateStrings', 'emptyCollections', 'sparseCollections', 'boxedInCollections', 'zeroArrays']);
    for (const k of kinds) expect(rows.filter((r) => r.tree?.parent === k.key)).toHaveLength(k.tree!.children);
  });

  it('names the holders the program made its waste in (truth.json), its own apart from the JDK’s', () => {
    const rows = wasteRowsOf(data);
    const under = (kind: string) => rows.filter((r) => r.tree?.parent === `memory:0:waste:${kind}`).map((r) => r.text);
    const sparse = truth.sparseHashMaps as { holder: string };
    expect(under('sparseCollections')[0]).toContain(`kept by ${sparse.holder}`);
    const boxed = truth.boxedInCollections as Array<{ holder?: string; control?: string }>;
    for (const b of boxed) {
      // The program's boxed lists are named; its control, the same numbers in an int[], is not.
      if (b.holder !== undefined) expect(under('boxedInCollections').some((t) => t.includes(`kept by ${b.holder} (static)`))).toBe(true);
      if (b.control !== undefined) expect(under('boxedInCollections').some((t) => t.includes(b.control!))).toBe(false);
    }
    const zeros = truth.zeroArrays as Array<{ holder: string }>;
    expect(under('zeroArrays')[0]).toContain(`kept by ${zeros[0]!.holder} (static)`);
    // The JDK's own waste is marked as such, and the total says how much of it the program cannot change.
    const jdkRows = rows.filter((r) => r.text.includes("(the JDK's own)"));
    expect(jdkRows.length).toBeGreaterThan(0);
    for (const r of jdkRows) expect(r.tone).toBe('dim');
    expect(rows[0]!.detail.some((l) => l.text.includes("of which the JDK's own fields and constant pools keep"))).toBe(true);
  });

  it('shows what the analysis could not see', () => {
    // A dump read whole leaves nothing unseen: the notes of a cut one are given here.
    const notes = [
      "3 primitive arrays too big to read whole were not looked in (for zeros, or as a String's characters)",
      'the dump is cut short (at byte 1234)',
    ];
    const cut = buildUiData(withWaste(model, { ...waste, notes }), [], FILE);
    const detail = wasteRowsOf(cut)[0]!.detail.map((l) => l.text);
    for (const n of notes) expect(detail).toContain(`  ${n}`);
    expect(waste.notes).toEqual([]);
  });

  it('strips control sequences from the values and holders the dump holds', () => {
    const evil = '\u001b]0;owned\u0007\u001b[2J';
    const forged: MemoryWaste = {
      ...waste,
      duplicateStrings: {
        ...waste.duplicateStrings,
        values: [{ ...waste.duplicateStrings.values[0]!, value: `x${evil}y`, holders: [{ holder: `A.b${evil}`, objects: 2, wastedBytes: 10, jdk: false }] }],
      },
    };
    const text = memoryWasteRows(forged, 0)
      .flatMap((r) => [r.text, ...r.detail.map((l) => l.text)])
      .join('\n');
    expect(text).toContain('"x');
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });

  it('draws the screen, the waste part in view (golden)', async () => {
    const rows = data.screens.find((s) => s.id === 'memory')!.rows;
    const down = rows.findIndex((r) => r.key === 'memory:0:waste');
    const frame = await frameAfter(data, ['8', ...Array<string>(down).fill('j')]);
    expect(frame).toMatch(/› +WASTE /);
    await expect(frame).toMatchFileSnapshot('../golden/ui/8-memory-waste.txt');
  });

  it('draws a kind opened to its holders (golden)', async () => {
    // The duplicate strings' row: the total's row, then the kind's; + opens it.
    const rows = data.screens.find((s) => s.id === 'memory')!.rows;
    const down = rows.findIndex((r) => r.key === 'memory:0:waste:duplicateStrings');
    const frame = await frameAfter(data, ['8', ...Array<string>(down).fill('j'), '+']);
    expect(frame).toMatch(/› ▾ WASTE duplicate strings/);
    expect(frame).toContain('kept by com.example.catalog.Product.status');
    await expect(frame).toMatchFileSnapshot('../golden/ui/8-memory-waste-open.txt');
  });

  it('negative control: a summary with no waste draws no waste row', () => {
    const none = buildUiData(withWaste(model, undefined), [], FILE);
    expect(wasteRowsOf(none)).toEqual([]);
    expect(none.screens.find((s) => s.id === 'memory')!.rows.some((r) => r.text.includes('WASTE'))).toBe(false);
    expect(memoryWasteRows(undefined, 0)).toEqual([]);
  });
});
