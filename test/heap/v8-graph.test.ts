/**
 * The object graph of a V8 .heapsnapshot, for the dominator tree: checked against an independent
 * reading of the same file with JSON.parse (which nodes are objects, which edges retain, what the
 * roots are), against the histogram's totals, against an independent dominator algorithm, and
 * against what fixtures/heap-v8/make-snapshot.mjs built in a real Node process (1,234 markers held
 * by one global array).
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, describe, expect, test } from 'vitest';

import { dominatorTree, retainedOf } from '../../src/heap/graph/dominators.js';
import { analyseMemory } from '../../src/heap/memory/analyse-memory.js';
import { v8ObjectGraph } from '../../src/heap/v8/v8-graph.js';
import { readV8HeapSnapshotHistogram } from '../../src/heap/v8/v8-snapshot.js';
import { runCli, scratchDir } from '../helpers.js';
import { chkIdom } from './reference-dominators.js';

const FIXTURE = 'fixtures/heap-v8/markers.heapsnapshot.gz';
const CORPUS_SMALL = join('..', 'shared', 'corpus', 'heap', 'stefanpenner__heapsnapshot', 'small.heapsnapshot');
const scratch = scratchDir('v8-graph');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/** DevTools' reading, written here from the format alone: objects, retaining edges, and the objects the synthetic nodes reach. */
function reference(s: Snapshot) {
  const m = s.snapshot.meta;
  const nf = m.node_fields.length;
  const ef = m.edge_fields.length;
  const types = m.node_types[0];
  const edgeTypes = m.edge_types[0];
  const count = s.nodes.length / nf;
  const synthetic = (n: number) => types[s.nodes[n * nf + m.node_fields.indexOf('type')]!] === 'synthetic';
  const edgesOf: number[][] = [];
  let e = 0;
  for (let n = 0; n < count; n++) {
    const list: number[] = [];
    for (let k = 0; k < s.nodes[n * nf + m.node_fields.indexOf('edge_count')]!; k++, e++) {
      const type = edgeTypes[s.edges[e * ef + m.edge_fields.indexOf('type')]!];
      if (type === 'weak' || (type === 'shortcut' && n !== 0)) continue;
      list.push(s.edges[e * ef + m.edge_fields.indexOf('to_node')]! / nf);
    }
    edgesOf.push(list);
  }
  const objects = [...Array(count).keys()].filter((n) => !synthetic(n));
  const retainingEdges = objects.reduce((sum, n) => sum + edgesOf[n]!.filter((t) => !synthetic(t)).length, 0);
  const roots = new Set<number>();
  const seen = new Set([0]);
  const todo = [0];
  while (todo.length > 0) {
    for (const t of edgesOf[todo.pop()!]!) {
      if (!synthetic(t)) roots.add(s.nodes[t * nf + m.node_fields.indexOf('id')]!);
      else if (!seen.has(t)) {
        seen.add(t);
        todo.push(t);
      }
    }
  }
  return { objects: objects.length, retainingEdges, rootIds: roots };
}

describe('the object graph of a V8 heap snapshot', { timeout: 60_000 }, () => {
  const cases = [FIXTURE, ...(existsSync(CORPUS_SMALL) ? [CORPUS_SMALL] : [])];
  if (!existsSync(CORPUS_SMALL)) test.skip(`${CORPUS_SMALL} (needs ../shared)`, async () => undefined);
  for (const file of cases) {
    test(`${file}: the objects, edges and roots DevTools reads, the histogram's totals, the reference dominators`, async () => {
      const bytes = readFileSync(file);
      const parsed = JSON.parse((file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8')) as Snapshot;
      const want = reference(parsed);
      const { graph } = await v8ObjectGraph(file);
      expect(graph.objects).toBe(want.objects);
      expect(graph.edges.length).toBe(want.retainingEdges);
      expect(new Set([...graph.roots].map((v) => graph.ids[v]!))).toEqual(want.rootIds);
      expect(graph.missingReferences).toBe(0);
      // Shallow sizes are V8's self sizes: the histogram's, less the synthetic nodes (which are not objects).
      const h = await readV8HeapSnapshotHistogram(file);
      const synthetic = h.rows.find((r) => r.className === '(synthetic)');
      expect(graph.objects).toBe(h.totalInstances - (synthetic?.instances ?? 0));
      expect([...graph.shallow].reduce((a, b) => a + b, 0)).toBe(h.totalBytes - (synthetic?.shallowBytes ?? 0));
      const t = dominatorTree(graph);
      expect([...t.idom]).toEqual([...chkIdom(graph)]);
    });
  }

  test('the 1,234 markers the program held in one global array are all retained by that array, and its path names the global property', async () => {
    const a = await analyseMemory(FIXTURE, { format: 'v8-heapsnapshot' });
    const g = a.graph;
    const markers: number[] = [];
    for (let v = 0; v < g.objects; v++) if (g.classNames[g.classOf[v]!] === 'DumpsleuthMarker') markers.push(v);
    expect(markers).toHaveLength(1234);
    // Their dominator: the same Array, for every one of them.
    const dominatorOf = new Int32Array(g.objects).fill(-1);
    for (let p = 0; p <= g.objects; p++) for (let k = a.lists.start[p]!; k < a.lists.start[p + 1]!; k++) dominatorOf[a.lists.children[k]!] = p;
    const holders = new Set(markers.map((v) => dominatorOf[v]!));
    expect(holders.size).toBe(1);
    const array = [...holders][0]!;
    expect(g.classNames[g.classOf[array]!]).toBe('Array');
    const markerBytes = markers.reduce((sum, v) => sum + g.shallow[v]!, 0);
    expect(retainedOf(a.tree, array)).toBeGreaterThanOrEqual(markerBytes);
    const doc = JSON.parse((await runCli(['memory', '-f', 'json', '--path', `@${g.ids[markers[0]!]}`, FIXTURE])).stdout);
    const steps = doc.path.steps as Array<{ id: string; class: string; via?: string; rootKind?: string }>;
    expect(steps.map((x) => [x.via, x.class]).slice(-3)).toEqual([
      [undefined, 'global'],
      ['dumpsleuthFixtureObjects', 'Array'],
      [expect.stringMatching(/^\[\d+\]$/), 'DumpsleuthMarker'],
    ]);
    expect(steps[0]!.rootKind).toBe('global object');
    expect(doc.path.target).toMatch(/^@\d+$/);
    const ajv = new Ajv2020.default({ allErrors: true, strict: true, allowUnionTypes: true });
    const validate = ajv.compile(JSON.parse(readFileSync('docs/memory.schema.json', 'utf8')));
    expect(validate(doc), ajv.errorsText(validate.errors)).toBe(true);
  });

  test('a snapshot cut inside its edges still gives a tree of what it holds, with a warning', async () => {
    const text = gunzipSync(readFileSync(FIXTURE));
    const edgesAt = text.indexOf('"edges":[');
    const cut = join(scratch, 'cut.heapsnapshot');
    writeFileSync(cut, text.subarray(0, edgesAt + Math.floor((text.indexOf('"strings":[') - edgesAt) / 2)));
    const r = await runCli(['memory', cut]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: .*inside `edges`/);
    expect(r.stdout).toContain('Biggest retainers');
  });
});
