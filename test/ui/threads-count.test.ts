/**
 * Issue 46: the Threads screen counted a thread once per dump (`one of 117 threads` for 39 threads in
 * 3 dumps). A thread of a series is one thread: on a real three-dump incident, each group's count
 * (its row and its threads' detail) is its distinct threads (by name: this JVM's names are unique),
 * not its rows, one a thread a dump. Control: one dump alone, where the counts were right already.
 */
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { buildUiData } from '../../src/ui/build-view.js';
import { detailOf } from '../../src/ui/view-data.js';
import { analyseFiles, analyseIncident, INCIDENTS } from '../helpers.js';

const INCIDENT = join(INCIDENTS, 'tomcat-stuck-requests');

/** Group rows (`stack:N`) with their count, their thread rows' names (one row a thread a dump), and the detail of the first. */
async function groups(load: Promise<Awaited<ReturnType<typeof analyseIncident>>>) {
  const { model, findings } = await load;
  const screen = buildUiData(model, findings, 't').screens.find((s) => s.id === 'threads')!;
  return screen.rows
    .filter((r) => r.key.startsWith('stack:'))
    .map((r) => {
      const children = screen.rows.filter((c) => c.tree?.parent === r.key);
      const names = children.map((c) => /^"(.*)" /.exec(detailOf(c)[0]!.text)![1]!);
      return {
        text: r.text,
        count: Number(/^×(\d+)/.exec(r.text)![1]),
        names,
        child: detailOf(children[0]!)
          .map((l) => l.text)
          .join('\n'),
      };
    });
}

const threadsWith = (n: number) => (n === 1 ? 'the only thread with this stack' : `one of ${n} threads with this stack`);

describe('Threads screen: a thread of a series is one thread', { timeout: 60_000 }, () => {
  it('three dumps: a group counts each thread once, however many dumps it is in', async () => {
    const all = await groups(analyseIncident(INCIDENT));
    // The incident's threads keep their names across its dumps: a name is a thread.
    for (const g of all) {
      expect(g.count, g.text).toBe(new Set(g.names).size);
      expect(g.child).toContain(threadsWith(g.count));
    }
    // Groups seen in every dump: fewer threads than rows.
    expect(all.filter((g) => /\(3 dumps, \d+ in each\)$/.test(g.text) && g.count < g.names.length).length).toBeGreaterThan(0);
  });

  it('control: one dump, the count is its rows', async () => {
    for (const g of await groups(analyseFiles([join(INCIDENT, 'dump-1.txt')]))) {
      expect(g.count, g.text).toBe(g.names.length);
      expect(g.child).toContain(threadsWith(g.names.length));
    }
  });
});

describe("the Threads tab's count", { timeout: 60_000 }, () => {
  it('three dumps: the distinct threads of the series, as the Series screen has them, not a row a thread a dump', async () => {
    const { model, findings } = await analyseIncident(INCIDENT);
    const screens = buildUiData(model, findings, 't').screens;
    const threads = screens.find((s) => s.id === 'threads')!;
    const rowsOfThreads = threads.rows.filter((r) => !r.key.startsWith('stack:')).length;
    const distinct = new Set(model.dumps.flatMap((d) => d.threads.map((t) => t.name))).size;
    expect(model.dumps.length).toBe(3);
    expect(threads.count).toBe(distinct);
    expect(rowsOfThreads).toBe(3 * distinct);
  });
});
