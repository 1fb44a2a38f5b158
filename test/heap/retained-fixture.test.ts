/**
 * Retained sizes equal what fixtures/programs/retained/Retained.java builds, exactly (sizes in
 * dumpsleuth's model: 12-byte headers, 16 for arrays, 4-byte references, 8-byte alignment).
 * The heap comes from a real JVM (bash fixtures/generate-retained.sh).
 */
import { readFileSync } from 'node:fs';

import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';

import { dominatorTree, retainedOf } from '../../src/heap/graph/dominators.js';
import { dominatedLists, memorySummary } from '../../src/heap/graph/memory-summary.js';
import { idOf, type ObjectGraph } from '../../src/heap/graph/object-graph.js';
import { hprofObjectGraph } from '../../src/heap/hprof/graph/hprof-graph.js';
import { analyseMemory } from '../../src/heap/memory/analyse-memory.js';
import type { RetainerNode } from '../../src/model/memory.js';
import { runCli } from '../helpers.js';

const HEAP = 'fixtures/heap/retained/heap.hprof.gz';

const instancesOf = (g: ObjectGraph, name: string): number[] => {
  const out: number[] = [];
  for (let v = 0; v < g.objects; v++) if (g.classNames[g.classOf[v]!] === name) out.push(v);
  return out;
};

describe('retained sizes known by construction', { timeout: 60_000 }, async () => {
  const g = await hprofObjectGraph(HEAP);
  const t = dominatorTree(g);
  const biggest = (name: string) => instancesOf(g, name).reduce((a, b) => (retainedOf(t, b) > retainedOf(t, a) ? b : a));

  test('a chain of 100 nodes, each with a byte[100]: the head retains 100 x (24 + 120)', async () => {
    expect(instancesOf(g, 'Retained$ChainNode')).toHaveLength(100);
    expect(retainedOf(t, biggest('Retained$ChainNode'))).toBe(100 * (24 + 120));
  });

  test('a ring of 10: the node its holder points at retains the ring', async () => {
    const entry = biggest('Retained$RingNode');
    expect(retainedOf(t, entry)).toBe(10 * 144);
    // Every other node of the ring hangs under it, one after the other.
    for (const v of instancesOf(g, 'Retained$RingNode')) if (v !== entry) expect(retainedOf(t, v)).toBeLessThan(10 * 144);
  });

  test('an object two holders reach is retained by neither, but by what dominates both', async () => {
    const [shared] = instancesOf(g, 'Retained$Shared');
    expect(retainedOf(t, shared!)).toBe(16 + 5016);
    const holderOf = (name: string) => [...g.classObjectNames].find(([, n]) => n === name)![0];
    const a = holderOf('Retained$SharedHolderA');
    const b = holderOf('Retained$SharedHolderB');
    const chain = (v: number) => {
      const out: number[] = [];
      for (let d = t.idom[v]!; d !== t.root && d >= 0; d = t.idom[d]!) out.push(d);
      return out;
    };
    // Neither holder is on its dominator chain; its dominator is on both holders' chains.
    expect(chain(shared!)).not.toContain(a);
    expect(chain(shared!)).not.toContain(b);
    const d = t.idom[shared!]!;
    expect(d === t.root || (chain(a).includes(d) && chain(b).includes(d))).toBe(true);
    expect(retainedOf(t, a) + retainedOf(t, b)).toBeLessThan(16 + 5016);
  });

  test('a referent held only by a SoftReference is retained by the reference', async () => {
    const softly = instancesOf(g, 'byte[]').filter((v) => g.shallow[v] === 20016);
    expect(softly).toHaveLength(1);
    const ref = t.idom[softly[0]!]!;
    expect(g.classNames[g.classOf[ref]!]).toBe('java.lang.ref.SoftReference');
    expect(retainedOf(t, ref)).toBe(g.shallow[ref]! + 20016);
  });

  test('the listener leak is the suspect, accumulating in the list array that holds the 2,000 listeners', async () => {
    const s = memorySummary(g, t);
    expect(s.suspects.length).toBeGreaterThanOrEqual(1);
    const a = s.suspects[0]!.accumulation;
    expect(a.className).toBe('java.lang.Object[]');
    expect(a.dominated).toBe(2000);
    // 2,000 listeners of 16 bytes, each with a byte[512] (528 bytes), and the array itself.
    expect(a.retained).toBe(2000 * (16 + 528) + a.shallow);
    const listeners = s.classes.find((c) => c.className === 'Retained$Listener')!;
    expect(listeners).toMatchObject({ instances: 2000, shallow: 2000 * 16, retained: 2000 * (16 + 528) });
  });

  test('--path: the shortest strong path from a GC root, with the field, index or static of each step', async () => {
    const s = memorySummary(g, t);
    const doc = JSON.parse((await runCli(['memory', '-f', 'json', '--path', s.suspects[0]!.accumulation.id, HEAP])).stdout);
    const ajv = new Ajv2020.default({ allErrors: true, strict: true, allowUnionTypes: true });
    const validate = ajv.compile(JSON.parse(readFileSync('docs/memory.schema.json', 'utf8')));
    expect(validate(doc), ajv.errorsText(validate.errors)).toBe(true);
    const steps = doc.path.steps as Array<{ class: string; describes?: string; via?: string; rootKind?: string }>;
    expect(steps[0]!.rootKind).toBeDefined();
    expect(steps.slice(-3).map((x) => [x.via, x.describes ?? x.class])).toEqual([
      [expect.stringMatching(/^\[\d+\]$/), 'Retained$ListenerRegistry'],
      ['static LISTENERS', 'java.util.ArrayList'],
      ['elementData', 'java.lang.Object[]'],
    ]);
    // What only a SoftReference holds has no strong path.
    const softly = instancesOf(g, 'byte[]').find((v) => g.shallow[v] === 20016)!;
    const none = JSON.parse((await runCli(['memory', '-f', 'json', '--path', `0x${idOf(g, softly).toString(16)}`, HEAP])).stdout);
    expect(none.path.steps).toEqual([]);
    expect((await runCli(['memory', '--path', 'nope', HEAP])).code).toBe(2);
    const missing = await runCli(['memory', '--path', '0x8', HEAP]);
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringMatching(/^error: 0x8 is no object of /)]);
  });

  test('the top of the dominator tree: each node retains its shallow size plus its children and the rest it dominates; each has its path', async () => {
    const a = await analyseMemory(HEAP, { retainers: { top: 8, children: 4, depth: 7, minShare: 0.001 } });
    const lists = dominatedLists(g, t);
    const nodes: RetainerNode[] = [];
    const walk = (list: readonly RetainerNode[]) => list.forEach((n) => (nodes.push(n), walk(n.children)));
    walk(a.retainers!);
    expect(nodes.length).toBeGreaterThan(8);
    const heap = retainedOf(t, t.root);
    for (const n of nodes) {
      const v = n.object.index;
      const below = n.children.reduce((sum, c) => sum + c.object.retained, 0) + n.more.bytes;
      expect(n.object.retained).toBe(g.shallow[v]! + below);
      expect(n.children.length + n.more.objects).toBe(lists.start[v + 1]! - lists.start[v]!);
      for (const c of n.children) expect(c.object.retained).toBeGreaterThanOrEqual(heap * 0.001);
      // The path ends at the node, and each step is an edge of the graph; only what a weak, soft or
      // phantom reference holds has none.
      const path = n.path!;
      if (path.length === 0) {
        expect([...g.referents.referents]).toContain(v);
        continue;
      }
      expect(path.at(-1)!.object.id).toBe(n.object.id);
      for (let k = 1; k < path.length; k++) {
        const from = path[k - 1]!.object.index;
        expect([...g.edges.subarray(g.edgeStart[from]!, g.edgeStart[from + 1]!)]).toContain(path[k]!.object.index);
      }
    }
    // The listener list's array, by construction under the registry's static field, has the path --path prints.
    const list = nodes.find((n) => n.object.className === 'java.lang.Object[]' && n.more.objects + n.children.length === 2000)!;
    expect(list.path!.slice(-2).map((x) => x.via)).toEqual(['static LISTENERS', 'elementData']);
  });

  test('the array dropped before the dump is unreachable, left out and counted', async () => {
    const dropped = instancesOf(g, 'byte[]').filter((v) => g.shallow[v] === 30016);
    expect(dropped.length).toBeGreaterThanOrEqual(1);
    for (const v of dropped) expect(t.idom[v]).toBe(-1);
    expect(t.unreachable.bytes).toBeGreaterThanOrEqual(30016);
  });

  test('dumpsleuth memory: the text names the suspect, the JSON has the dumpsleuth.memory/1 shape', async () => {
    const text = await runCli(['memory', HEAP]);
    // (An app class's statics are retained by its class loader, which holds its classes.)
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      new RegExp(
        /Leak suspects\n {2}1\. .* retains .* of the heap\)\n {5}/.source +
          /the memory accumulates in java\.lang\.Object\[\] 0x[0-9a-f]+: it retains .* and directly holds 2,000 objects/.source,
      ),
    );
    const doc = JSON.parse((await runCli(['memory', '-f', 'json', HEAP])).stdout);
    expect(doc.schema).toBe('dumpsleuth.memory/1');
    const ajv = new Ajv2020.default({ allErrors: true, strict: true, allowUnionTypes: true });
    const validate = ajv.compile(JSON.parse(readFileSync('docs/memory.schema.json', 'utf8')));
    expect(validate(doc), ajv.errorsText(validate.errors)).toBe(true);
    expect(validate({ ...doc, heap: { objects: 1 } })).toBe(false);
    expect(doc.heap).toMatchObject({ objects: g.objects, reachableObjects: t.reachable, unreachable: t.unreachable });
    expect(doc.classes.find((c: { class: string }) => c.class === 'Retained$ChainNode')).toEqual({
      class: 'Retained$ChainNode',
      instances: 100,
      shallow: 2400,
      retained: 14400,
    });
    expect(doc.dominators[0].retained).toBeGreaterThanOrEqual(doc.dominators[1].retained);
  });
});
