/**
 * The Memory screen's rows for classes defined by several class loaders, on the classloader-leak heap
 * (fixtures/heap/memory-beyond/classloader-leak), loaded as `ui` loads it: one row for the plugin
 * class saying what keeps its loaders, its detail naming the loaders and linking to the finding;
 * and the negative control, a heap where every class has one loader: no such row.
 */
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { loadIncidentData } from '../../src/ui/load-incident-data.js';

const DIR = 'fixtures/heap/memory-beyond/classloader-leak';
const truth = JSON.parse(readFileSync(`${DIR}/truth.json`, 'utf8')) as {
  class: string;
  loadersAlive: number;
  keptByStatic: number;
  staticHolder: string;
  threadLocalHolder: { thread: string };
};

const memoryRows = async (path: string) =>
  (await loadIncidentData({ paths: [path], memory: 'auto' }, () => undefined)).data.screens.find((s) => s.id === 'memory')!.rows;

describe('the Memory screen: classes defined by several class loaders', { timeout: 60_000 }, () => {
  it('lists the plugin class with what keeps its loaders, the loaders by name and the finding', async () => {
    const rows = (await memoryRows(`${DIR}/heap.hprof.gz`)).filter((r) => r.key.includes(':loaders:'));
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.text).toContain(truth.class);
    expect(row.text).toContain(`${truth.keptByStatic} through static ${truth.staticHolder}`);
    expect(row.tone).toBe('warning');
    const detail = row.detail.map((l) => l.text).join('\n');
    expect(detail).toContain(`defined by ${truth.loadersAlive} class loaders`);
    expect(detail).toMatch(/"report-plugin-deploy-\d+"/);
    expect(detail).toContain(`thread "${truth.threadLocalHolder.thread}"`);
    expect(row.detail.find((l) => l.link !== undefined)?.link).toEqual({ screen: 'findings', key: `memory-leak-suspect:${truth.class}` });
  });

  it('negative control: a heap whose classes each have one loader has no such row', async () => {
    const rows = await memoryRows('fixtures/heap/memory-beyond/waste-control/heap.hprof.gz');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((r) => r.key.includes(':loaders:'))).toEqual([]);
  });
});
