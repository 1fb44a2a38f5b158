/**
 * Classes defined by several class loaders, on real JVMs' heaps: fixtures/heap/memory-beyond/classloader-leak
 * (fixtures/programs/memory-beyond/fixture/beyond/ClassLoaderLeak.java: 26 redeployments of one plugin
 * class, each through its own named URLClassLoader, kept by a static of the host, a ThreadLocal of a
 * pooled thread, or released), checked against the program's truth.json; and the negative controls,
 * the other memory-beyond heaps and every incident's heap, where every class has one defining loader.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';

import { dominatorTree } from '../../src/heap/graph/dominators.js';
import { hprofObjectGraph } from '../../src/heap/hprof/graph/hprof-graph.js';
import { analyseMemory } from '../../src/heap/memory/analyse-memory.js';
import { runCli } from '../helpers.js';

const DIR = 'fixtures/heap/memory-beyond/classloader-leak';
const HEAP = join(DIR, 'heap.hprof.gz');

interface Truth {
  class: string;
  loaderClass: string;
  loadersAlive: number;
  keptByStatic: number;
  keptByThreadLocal: number;
  staticHolder: string;
  threadLocalHolder: { thread: string; threadLocal: string };
  loaders: Array<{ loader: string; mode: 'static' | 'thread-local' | 'released'; aliveAtDump: boolean }>;
}
const truth = JSON.parse(readFileSync(join(DIR, 'truth.json'), 'utf8')) as Truth;

describe('classes defined by several class loaders', { timeout: 120_000 }, () => {
  it('the graph links each class to its defining loader and each instance to its class, as MAT does', async () => {
    const g = await hprofObjectGraph(HEAP);
    const classes = [...g.classObjectNames].filter(([, name]) => name === truth.class).map(([v]) => v);
    expect(classes).toHaveLength(truth.loadersAlive);
    const edgesOf = (v: number) => [...g.edges.subarray(g.edgeStart[v]!, g.edgeStart[v + 1]!)];
    for (const c of classes) {
      const loader = g.definingLoaders!.get(c)!;
      expect(g.classNames[g.classOf[loader]!]).toBe(truth.loaderClass);
      // The class keeps its loader alive, and the loader its classes (ClassLoader.classes, a field of the JDK).
      expect(edgesOf(c)).toContain(loader);
    }
    const instances: number[] = [];
    for (let v = 0; v < g.objects; v++) if (g.classNames[g.classOf[v]!] === truth.class) instances.push(v);
    expect(instances).toHaveLength(truth.loadersAlive);
    // An instance's first edge is its class: one of the plugin classes, each held by one instance.
    expect(new Set(instances.map((v) => g.edges[g.edgeStart[v]!]!))).toEqual(new Set(classes));
    // Why the dominator tree puts each plugin class at its top: the program's WeakReference to each loader
    // (held by main's frame) is a second path to the loader, and a weak referent counts in the tree as in MAT's.
    const t = dominatorTree(g);
    for (const c of classes) {
      const loader = g.definingLoaders!.get(c)!;
      expect(t.idom[c]).toBe(t.root);
      const referrers: number[] = [];
      for (let v = 0; v < g.objects; v++) if (edgesOf(v).includes(loader)) referrers.push(v);
      expect(referrers.map((v) => g.classNames[g.classOf[v]!])).toContain('java.lang.ref.WeakReference');
    }
  });

  it('memory names the class, its loaders and what keeps each one, as the program built them', async () => {
    const run = await runCli(['memory', '-f', 'json', HEAP]);
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout);
    const ajv = new Ajv2020.default({ allErrors: true, strict: true, allowUnionTypes: true });
    const validate = ajv.compile(JSON.parse(readFileSync('docs/memory.schema.json', 'utf8')));
    expect(validate(doc), ajv.errorsText(validate.errors)).toBe(true);
    const [c, ...others] = doc.classLoaders.classes;
    expect(others).toEqual([]);
    expect(c).toMatchObject({ class: truth.class, loaderCount: truth.loadersAlive, loaderClasses: [truth.loaderClass], classObjects: truth.loadersAlive });
    const groups = Object.fromEntries(
      c.keptBy.map((g: { holder: { kind: string; field?: string; holder?: { thread?: string } }; loaders: number }) => [
        `${g.holder.kind} ${g.holder.field ?? ''} ${g.holder.holder?.thread ?? ''}`.trim(),
        g.loaders,
      ]),
    );
    expect(groups).toEqual({
      [`static ${truth.staticHolder}`]: truth.keptByStatic,
      [`thread-local ${truth.threadLocalHolder.threadLocal} ${truth.threadLocalHolder.thread}`]: truth.keptByThreadLocal,
    });
    // Each loader by its name: alive as the program left it, kept as the program kept it.
    const alive = truth.loaders.filter((l) => l.aliveAtDump);
    const byName = new Map<string, string>(c.loaders.map((l: { name: string; keptBy: { kind: string } }) => [l.name, l.keptBy.kind]));
    expect([...byName.keys()].sort()).toEqual(alive.map((l) => l.loader).sort());
    for (const l of alive) expect(byName.get(l.loader), l.loader).toBe(l.mode);
    const text = (await runCli(['memory', HEAP])).stdout;
    expect(text).toContain(`${truth.keptByStatic} through static ${truth.staticHolder}`);
    expect(text).toContain(`on thread "${truth.threadLocalHolder.thread}"`);
  });

  const controls = [
    ...['growth/heap-3.hprof.gz', 'waste/heap.hprof.gz', 'waste-control/heap.hprof.gz', 'frame-holder/heap.hprof.gz'].map((f) =>
      join('fixtures/heap/memory-beyond', f),
    ),
    ...readdirSync('fixtures/incidents')
      .map((d) => join('fixtures/incidents', d))
      .filter((d) => statSync(d).isDirectory())
      .flatMap((d) =>
        readdirSync(d)
          .filter((f) => /\.hprof(\.gz)?$/.test(f))
          .map((f) => join(d, f)),
      ),
  ];
  it.each(controls)('negative control %s: every class has one defining loader, and the summary says so', async (heap) => {
    const a = await analyseMemory(heap, { suspectPaths: true });
    expect(a.summary.classLoaders).toEqual({ classes: [], moreClasses: 0 });
  });
});
