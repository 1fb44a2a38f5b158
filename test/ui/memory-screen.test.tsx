/**
 * The Memory screen on the session-cache leak, a real JVM's heap (fixtures/generate-memory-incidents.sh):
 * loaded as `ui` loads it, the tree keeps the dominator identities, its nodes carry their paths from
 * a GC root, the finding's evidence leads to the tree, and the frame is a golden file.
 */
import { join } from 'node:path';

import chalk from 'chalk';
import { render } from 'ink-testing-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { App } from '../../src/ui/components/App.js';
import { loadIncidentData } from '../../src/ui/load-incident-data.js';
import { follow, initialState } from '../../src/ui/state/ui-state.js';
import type { UiData, UiRow, UiScreen } from '../../src/ui/view-data.js';
import { INCIDENTS, truthOf } from '../helpers.js';

const dir = join(INCIDENTS, 'session-cache-leak');
const truth = truthOf('session-cache-leak') as { facts: { sessions: number; attributeBytes: number; holder: string } };
const tick = () => new Promise((r) => setImmediate(() => setTimeout(r, 0)));

/** `12.3 MiB` back to bytes (the row text rounds to one decimal). */
function bytesOf(text: string): number {
  const m = /([\d.]+) (bytes|KiB|MiB|GiB)/.exec(text)!;
  return Number(m[1]) * { bytes: 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 }[m[2] as 'bytes']!;
}

describe('the Memory screen', { timeout: 60_000 }, () => {
  let data: UiData;
  let memory: UiScreen;
  const level = chalk.level;
  beforeAll(async () => {
    chalk.level = 0;
    data = (await loadIncidentData({ paths: [dir], memory: 'auto' }, () => undefined)).data;
    memory = data.screens.find((s) => s.id === 'memory')!;
  });
  afterAll(() => {
    chalk.level = level;
  });

  it('has the tree of the dominators, each child under its parent and no bigger, children largest first', () => {
    const tree = memory.rows.filter((r) => r.tree !== undefined);
    expect(tree.length).toBeGreaterThan(20);
    const byKey = new Map(tree.map((r) => [r.key, r]));
    for (const r of tree) {
      const parent = r.tree!.parent;
      expect(r.tree!.children).toBe(tree.filter((c) => c.tree!.parent === r.key).length);
      if (parent === undefined) continue;
      expect(byKey.get(parent)!.tree!.depth).toBe(r.tree!.depth - 1);
      expect(bytesOf(r.text)).toBeLessThanOrEqual(bytesOf(byKey.get(parent)!.text));
    }
  });

  it("the registry's map holds the sessions, and its path from a GC root names the static field", () => {
    const [cls, field] = truth.facts.holder.split(/\.(?=[A-Z_]+$)/) as [string, string];
    const registry = memory.rows.find((r) => r.tree !== undefined && r.text.includes(`class ${cls}`))!;
    expect(registry).toBeDefined();
    // Each session holds attributeBytes of attributes: the registry retains at least all of them.
    expect(bytesOf(registry.text)).toBeGreaterThanOrEqual(truth.facts.sessions * truth.facts.attributeBytes);
    const map = memory.rows.find((r) => r.tree?.parent === registry.key)!;
    const path = map.detail.map((l) => l.text).filter((t) => t.includes(' -> ') || t.includes('GC root ('));
    expect(path[0]).toMatch(/GC root \(/);
    expect(path.at(-1)).toContain(`static ${field} -> java.util.concurrent.ConcurrentHashMap`);
    // Big rows start expanded, so the leak is in view without a key press.
    expect(registry.tree!.open).toBe(true);
  });

  it('the leak-suspect finding links its heap objects to their rows, which are shown when followed', () => {
    const finding = data.screens.find((s) => s.id === 'findings')!.rows.find((r) => r.key.includes('memory-leak-suspect'))!;
    const link = finding.detail.find((l) => l.link?.screen === 'memory')!.link!;
    const s = follow(data, initialState(data, 20), link);
    expect(data.screens[s.screen]!.id).toBe('memory');
    const shown: UiRow | undefined = memory.rows.find((r) => r.key === link.key);
    expect(shown?.tree).toBeDefined();
    // The suspect row links back to the finding.
    const suspect = memory.rows.find((r) => r.text.includes('SUSPECT'))!;
    expect(suspect.detail.some((l) => l.link?.screen === 'findings' && l.link.key === finding.key)).toBe(true);
  });

  it('draws the screen (golden)', async () => {
    const ui = render(<App data={data} />);
    await tick();
    ui.stdin.write('8');
    await tick();
    const frame = ui.lastFrame() ?? '';
    ui.unmount();
    expect(frame).toContain('▾');
    await expect(frame + '\n').toMatchFileSnapshot('../golden/ui/8-memory.txt');
  });
});
