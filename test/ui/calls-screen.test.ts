/** The Calls screen: the merged call tree as rows, counts from the stacks, widest first, searchable by frame. */
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { buildUiData } from '../../src/ui/build-view.js';
import { visibleRows } from '../../src/ui/state/ui-state.js';
import { analyseIncident, INCIDENTS } from '../helpers.js';

describe('Calls screen', () => {
  it('counts each node as the threads whose stacks pass through it, and opens the wide branches', async () => {
    const { model, findings } = await analyseIncident(join(INCIDENTS, 'hikari-starvation'), { threadsOnly: true });
    const calls = buildUiData(model, findings, 't').screens.find((s) => s.id === 'calls')!;
    const all = model.dumps.flatMap((d) => d.threads);
    // Top-level rows: the bottom frames threads start in, with their thread counts, widest first.
    const top = calls.rows.filter((r) => r.tree?.depth === 0);
    const bottom = new Map<string, number>();
    for (const t of all)
      if (t.frames.length > 0) bottom.set(t.frames[t.frames.length - 1]!.qualified, (bottom.get(t.frames[t.frames.length - 1]!.qualified) ?? 0) + 1);
    const widest = [...bottom].sort((a, b) => b[1] - a[1])[0]!;
    expect(top[0]!.text).toMatch(new RegExp(`^\\s*${widest[1]}\\s+[\\d.]+%\\s+${widest[0].replace(/[.$]/g, '\\$&')}`));
    // Opened at first: a wide branch shows its children without a key press.
    const shown = visibleRows(calls.rows, '', new Set(calls.rows.filter((r) => r.tree?.open === true).map((r) => r.key)));
    expect(shown.some((r) => r.tree?.depth === 1)).toBe(true);
    // A search finds a frame deep in the tree.
    const found = visibleRows(calls.rows, 'hikaripool.getconnection');
    expect(found.length).toBeGreaterThan(0);
    expect(found[0]!.detail.some((l) => l.text.includes('called from'))).toBe(true);
  });
});
