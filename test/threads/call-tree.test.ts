/** The merged call tree (flame graph and call-tree data): counts checked against the stacks themselves. */
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { type CallTreeNode, mainState } from '../../src/model/call-tree.js';
import { callTree } from '../../src/threads/call-tree.js';
import { analyseIncident, INCIDENTS } from '../helpers.js';

function find(n: CallTreeNode, path: readonly string[]): CallTreeNode | undefined {
  let at: CallTreeNode | undefined = n;
  for (const f of path) at = at?.children.find((c) => c.frame === f);
  return at;
}

describe('callTree', () => {
  it('counts every thread once per dump, at the root and along its stack, by state', async () => {
    const { model } = await analyseIncident(join(INCIDENTS, 'hikari-starvation'), { threadsOnly: true });
    const tree = callTree(model.dumps);
    const all = model.dumps.flatMap((d) => d.threads);
    expect(tree.count).toBe(all.length);
    // Threads with no Java frames end at the root; the others pass into one of its children.
    expect(tree.self).toBe(all.filter((t) => t.frames.length === 0).length);
    expect(tree.children.reduce((n, c) => n + c.count, 0) + tree.self).toBe(tree.count);
    // A node's count: the threads whose stack, read from the bottom, starts with its path.
    const worker = all.find((t) => t.name.startsWith('order-worker-'))!;
    const path = worker.frames.map((f) => f.qualified).reverse();
    for (const depth of [1, 3, path.length]) {
      const prefix = path.slice(0, depth);
      const expected = all.filter((t) => {
        const p = t.frames.map((f) => f.qualified).reverse();
        return prefix.every((f, k) => p[k] === f);
      });
      const n = find(tree, prefix)!;
      expect(n.count).toBe(expected.length);
      expect(n.states[worker.state]).toBe(expected.filter((t) => t.state === worker.state).length);
    }
    // The worker's top frame is the end of its stack: counted as self there.
    expect(find(tree, path)!.self).toBeGreaterThanOrEqual(1);
  });

  it('orders children widest first and names the state most threads of a node are in', () => {
    const frame = (qualified: string) => ({
      className: qualified.slice(0, qualified.lastIndexOf('.')),
      method: qualified.slice(qualified.lastIndexOf('.') + 1),
      location: '',
      qualified,
    });
    const th = (state: 'BLOCKED' | 'RUNNABLE', ...frames: string[]) => ({ name: 't', state, frames: frames.map(frame), locks: [] });
    const dump = { threads: [th('RUNNABLE', 'a.B.c', 'a.Main.run'), th('BLOCKED', 'a.D.e', 'a.Main.run'), th('BLOCKED', 'a.D.e', 'a.Main.run')] } as never;
    const tree = callTree([dump]);
    const run = tree.children[0]!;
    expect(run.frame).toBe('a.Main.run');
    expect(run.children.map((c) => [c.frame, c.count])).toEqual([
      ['a.D.e', 2],
      ['a.B.c', 1],
    ]);
    expect(mainState(run)).toBe('BLOCKED');
    expect(mainState(run.children[1]!)).toBe('RUNNABLE');
  });
});
