/**
 * Issue 49, item 3: whose stack holds it. A thread's frame keeps a collection alive in a local
 * variable (HPROF Java-frame roots name the thread and the frame's depth in its stack trace): the
 * suspect, its path and the tree say which thread and which frame, in every output. Checked on a
 * real JVM's heap (fixtures/heap/memory-beyond/frame-holder) against what the program said it holds
 * (truth.json `holder`, `control`) and what an independent HPROF reader found (`heapCount`'s
 * javaFrameRoots); on hand-built graphs for the cases the fixture does not have; and the controls: a
 * small list another thread's frame holds is no suspect, a V8 snapshot (no frames) says nothing new.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import Ajv2020 from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, test } from 'vitest';

import { dominatorTree } from '../../src/heap/graph/dominators.js';
import { analyseGraph } from '../../src/heap/graph/heap-memory.js';
import { memorySummary } from '../../src/heap/graph/memory-summary.js';
import type { ObjectGraph, StackLocals } from '../../src/heap/graph/object-graph.js';
import { hprofObjectGraph } from '../../src/heap/hprof/graph/hprof-graph.js';
import { stackHolderText } from '../../src/model/memory.js';
import { loadIncidentData } from '../../src/ui/load-incident-data.js';
import type { UiRow } from '../../src/ui/view-data.js';
import { runCli, scratchDir } from '../helpers.js';

const DIR = 'fixtures/heap/memory-beyond/frame-holder';
const HEAP = join(DIR, 'heap.hprof.gz');

interface Held {
  readonly thread: string;
  readonly class: string;
  readonly method: string;
  readonly file: string;
  readonly line: number;
  readonly collection: string;
  readonly count: number;
}
interface FrameRoot {
  readonly thread: string;
  readonly depth: number;
  readonly frame: string | null;
  readonly objectClass: string;
  readonly size?: number;
}
const truth = JSON.parse(readFileSync(join(DIR, 'truth.json'), 'utf8')) as {
  holder: Held;
  control: Held;
  heapCount: Record<string, { javaFrameRoots: FrameRoot[] }>;
};
const frameOf = (h: Held) => `${h.class}.${h.method}(${h.file}:${h.line})`;
/** The independent reader's Java-frame root of the program's collection: its frame and depth. */
const rootOf = (h: Held) => truth.heapCount['heap.hprof.gz']!.javaFrameRoots.find((r) => r.thread === h.thread && r.size === h.count)!;

interface JsonFrame {
  thread?: string;
  threadId?: string;
  depth: number;
  frame?: string;
}
interface JsonObject {
  id: string;
  class: string;
  thread?: string;
  stackFrames?: JsonFrame[];
}

describe('whose stack holds it: a real JVM heap', { timeout: 120_000 }, () => {
  test('the truth: the independent reader saw each collection in the frame the program names', () => {
    expect(rootOf(truth.holder).frame).toBe(frameOf(truth.holder));
    expect(rootOf(truth.control).frame).toBe(frameOf(truth.control));
  });

  test("the graph: each Java-frame root's frame, as the thread's stack trace writes it, at the depth the dump gives", async () => {
    const g = await hprofObjectGraph(HEAP);
    const s = g.stackLocals!;
    expect(s).toBeDefined();
    for (const h of [truth.holder, truth.control]) {
      const entries = [...s.objects.keys()].filter((i) => s.frames[i]! >= 0 && s.frameTexts[s.frames[i]!] === frameOf(h));
      // The collection (and, for the exporter, `this`): each with the depth the independent reader found.
      expect(entries.map((i) => g.classNames[g.classOf[s.objects[i]!]!])).toContain(h.collection);
      for (const i of entries) expect(s.depths[i]).toBe(rootOf(h).depth);
    }
  });

  test('memory JSON: the suspect says which frame of which thread keeps its memory; the control is no suspect', async () => {
    const run = await runCli(['memory', '-f', 'json', HEAP]);
    expect(run.code).toBe(0);
    const memorySchema = schemaCheck().compile(JSON.parse(readFileSync('docs/memory.schema.json', 'utf8')));
    expect(memorySchema(JSON.parse(run.stdout)), JSON.stringify(memorySchema.errors)).toBe(true);
    const doc = JSON.parse(run.stdout) as {
      suspects: Array<{
        subject: JsonObject;
        accumulation: JsonObject & { dominated: number };
        stackHolder?: JsonObject;
        path: Array<JsonObject & { via?: string }>;
      }>;
      dominators: JsonObject[];
    };
    const held = doc.suspects.filter((x) => x.stackHolder !== undefined);
    expect(held).toHaveLength(1);
    const x = held[0]!;
    expect(x.subject.thread).toBe(truth.holder.thread);
    expect(x.accumulation.dominated).toBe(truth.holder.count);
    expect(x.stackHolder!.class).toBe(truth.holder.collection);
    expect(x.stackHolder!.stackFrames).toEqual([
      { thread: truth.holder.thread, threadId: x.subject.id, depth: rootOf(truth.holder).depth, frame: frameOf(truth.holder) },
    ]);
    // The path's step from the thread to its local names the frame.
    const local = x.path.find((st) => st.id === x.stackHolder!.id)!;
    expect(local.via).toBe(`a local variable of ${frameOf(truth.holder)}`);
    // Control: the ticker's ten rows are no suspect, and no suspect names its thread or frame.
    expect(run.stdout).not.toContain(truth.control.thread);
    expect(run.stdout).not.toContain(frameOf(truth.control));
  });

  test('memory text: the suspect, its path and the tree name the thread and the frame', async () => {
    const run = await runCli(['memory', HEAP]);
    expect(run.code).toBe(0);
    const said = `a local variable of ${frameOf(truth.holder)} in thread "${truth.holder.thread}"`;
    expect(run.stdout).toContain(`held on a thread's stack: ${said} holds ${truth.holder.collection} 0x`);
    expect(run.stdout).toMatch(
      new RegExp(`kept by: GC root \\(thread\\) java\\.lang\\.Thread "${truth.holder.thread}" -> a local variable of ${escape(frameOf(truth.holder))} -> `),
    );
    expect(run.stdout).toMatch(new RegExp(`${escape(truth.holder.collection)} 0x[0-9a-f]+  held by ${escape(said)}\\n`));
  });

  describe('analyze: its memory part in every format, the finding and the UI', () => {
    let config: string;
    beforeAll(() => {
      // The heap is small (2 MB): the rule's size floor lowered so that its suspect is a finding.
      config = join(scratchDir('stack-holder'), 'config.json');
      writeFileSync(config, JSON.stringify({ rules: { 'memory-leak-suspect': ['warning', { minRetainedMB: 1 }] } }));
    });
    const said = `a local variable of ${frameOf(truth.holder)} in thread "${truth.holder.thread}"`;

    test('text, Markdown and HTML: the memory section and the finding name the frame and the thread', async () => {
      const html = (t: string) => t.replaceAll('"', '&quot;').replaceAll("'", '&#39;');
      for (const [format, escaped] of [
        ['text', (t: string) => t],
        ['markdown', (t: string) => t],
        ['html', html],
      ] as const) {
        const run = await runCli(['analyze', '--config', config, '-f', format, HEAP]);
        expect(run.code, format).toBe(0);
        // The finding's message, then the memory section's suspect line (which ends there).
        const message = escaped(`It is held on a thread's stack: ${said} holds ${truth.holder.collection} 0x`);
        const section = escaped(`; held on a thread's stack: ${said} holds ${truth.holder.collection} 0x`);
        expect(run.stdout, format).toContain(message);
        expect(run.stdout, format).toContain(section);
        expect(run.stdout, format).toContain(`A local variable of ${frameOf(truth.holder)} holds it while that method runs`);
      }
    });

    test('JSON: the model carries the holder (report schema) and the finding its facts and evidence', async () => {
      const run = await runCli(['analyze', '--config', config, '-f', 'json', HEAP]);
      const doc = JSON.parse(run.stdout);
      const ajv = schemaCheck();
      ajv.addSchema(JSON.parse(readFileSync('docs/memory.schema.json', 'utf8')));
      const reportSchema = ajv.compile(JSON.parse(readFileSync('docs/report.schema.json', 'utf8')));
      expect(reportSchema(doc), JSON.stringify(reportSchema.errors)).toBe(true);
      const suspect = doc.model.memory[0].suspects[0];
      expect(suspect.stackHolder.stackFrames[0]).toMatchObject({ thread: truth.holder.thread, frame: frameOf(truth.holder) });
      const finding = doc.findings.find((f: { rule: string }) => f.rule === 'memory-leak-suspect');
      expect(finding.facts.heldOnStack).toEqual([said]);
      expect(finding.evidence).toContainEqual(expect.objectContaining({ kind: 'heap-object', id: suspect.stackHolder.id, note: `held by ${said}` }));
    });

    test("the UI's memory screen: the suspect's detail, and the local's row in the tree under its thread", async () => {
      const { data } = await loadIncidentData({ paths: [HEAP], memory: 'auto' }, () => undefined);
      const screen = data.screens.find((x) => x.id === 'memory')!;
      const suspect = screen.rows.find((r) => r.key.endsWith(':suspect:0'))!;
      expect(suspect.detail.map((l) => l.text)).toContain(`  held on a thread's stack: ${said} holds ${suspectHolder(screen.rows)}`);
      const local = screen.rows.find((r) => r.detail.some((l) => l.text === `  held by ${said}`))!;
      expect(local.text).toContain(truth.holder.collection);
      const thread = screen.rows.find((r) => r.key === local.tree?.parent)!;
      expect(thread.text).toContain(`java.lang.Thread "${truth.holder.thread}"`);
      // Its path from a GC root names the frame.
      expect(local.detail.map((l) => l.text).join('\n')).toContain(`a local variable of ${frameOf(truth.holder)} -> ${truth.holder.collection}`);
    });
  });
});

describe('whose stack holds it: an extract', { timeout: 120_000 }, () => {
  test('carries the holder to analyze; frames that are not well formed are dropped, not drawn', async () => {
    const dir = scratchDir('stack-holder-extract');
    const extract = join(dir, 'frame-holder.dsheap.json');
    expect((await runCli(['extract', HEAP, '-o', extract])).code).toBe(0);
    const said = `a local variable of ${frameOf(truth.holder)} in thread "${truth.holder.thread}"`;
    expect((await runCli(['analyze', extract])).stdout).toContain(`held on a thread's stack: ${said}`);

    // The file is input: a damaged (or hostile) one has frames of the wrong types.
    const doc = JSON.parse(readFileSync(extract, 'utf8'));
    const suspect = doc.header.memory.suspects[0];
    suspect.stackHolder.stackFrames = 'x';
    suspect.subject.stackFrames = [{ depth: 'deep' }];
    suspect.accumulation.stackFrames = [{ depth: 1, frame: 7 }];
    doc.header.memory.dominators[0].stackFrames = 5;
    const damaged = join(dir, 'damaged.dsheap.json');
    writeFileSync(damaged, JSON.stringify(doc));
    for (const format of ['text', 'json', 'html']) {
      const run = await runCli(['analyze', '-f', format, damaged]);
      expect(run.code, format).toBe(0);
      expect(run.stderr, format).not.toMatch(/TypeError|at /);
      // What was well formed stays (the path's step still names its frame); what was not is gone.
      expect(run.stdout, format).not.toMatch(/thread's stack|stackHolder/);
      if (format === 'json') {
        const x = JSON.parse(run.stdout).model.memory[0].suspects[0];
        expect([x.subject.stackFrames, x.accumulation.stackFrames]).toEqual([undefined, undefined]);
      }
    }
  });
});

describe('whose stack holds it: the controls', { timeout: 60_000 }, () => {
  test('a V8 snapshot has no frames: nothing is said of a stack', async () => {
    const run = await runCli(['memory', '-f', 'json', 'fixtures/heap-v8/markers.heapsnapshot.gz']);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(/stackFrames|stackHolder|local variable/);
  });
});

/**
 * A thread T (0, a root) whose frames hold a list L (1) with an array A (2) of 10 big elements (3..12);
 * `more` adds what the case needs. Sizes: 16 bytes each, the elements 1,000.
 */
function graphWith(stackLocals: StackLocals, extra: { edges?: Array<[number, number]>; roots?: number[]; rootKindOf?: Map<number, string> } = {}): ObjectGraph {
  const n = 14;
  const edges: Array<[number, number]> = [[0, 1], [1, 2], ...Array.from({ length: 10 }, (_, k): [number, number] => [2, 3 + k]), ...(extra.edges ?? [])];
  const start = new Int32Array(n + 1);
  for (const [a] of edges) start[a + 1]!++;
  for (let i = 1; i <= n; i++) start[i]! += start[i - 1]!;
  const cursor = start.slice();
  const out = new Int32Array(edges.length);
  for (const [a, b] of [...edges].sort((x, y) => x[0] - y[0])) out[cursor[a]!++] = b;
  return {
    objects: n,
    ids: Uint32Array.from({ length: n }, (_, i) => (0x1000 + 16 * i) / 8),
    idScale: 8,
    classOf: Int32Array.from({ length: n }, (_, i) => (i === 0 || i === 13 ? 0 : i === 1 ? 1 : i === 2 ? 2 : 3)),
    classNames: ['java.lang.Thread', 'java.util.ArrayList', 'java.lang.Object[]', 'com.acme.Row'],
    shallow: Uint32Array.from({ length: n }, (_, i) => (i >= 3 && i < 13 ? 1000 : 16)),
    edgeStart: start,
    edges: out,
    roots: Int32Array.from(extra.roots ?? [0]),
    rootKinds: {},
    missingReferences: 0,
    warnings: [],
    classObjectNames: new Map(),
    referents: { references: new Int32Array(0), referents: new Int32Array(0) },
    rootKindOf: extra.rootKindOf ?? new Map([[0, 'thread']]),
    stackLocals,
  };
}

const locals = (rows: Array<[object: number, thread: number, depth: number, frame: number]>, frameTexts: string[]): StackLocals => ({
  objects: Int32Array.from(rows, (r) => r[0]),
  threads: Int32Array.from(rows, (r) => r[1]),
  depths: Int32Array.from(rows, (r) => r[2]),
  frames: Int32Array.from(rows, (r) => r[3]),
  frameTexts,
});

describe('whose stack holds it: hand-built graphs', () => {
  test("a thread dominating its frame's local: the suspect names that frame", () => {
    const g = graphWith(locals([[1, 0, 3, 0]], ['com.acme.Export.run(Export.java:9)']));
    const s = memorySummary(g, dominatorTree(g)).suspects[0]!;
    expect(s.subject.index).toBe(0);
    expect(s.stackHolder?.index).toBe(1);
    expect(s.stackHolder?.stackFrames).toEqual([{ threadId: '0x1000', depth: 3, frame: 'com.acme.Export.run(Export.java:9)' }]);
  });

  test('a list the stacks of two threads hold is held by neither alone: no holder is named, the list lists both frames', () => {
    // A second thread (13), a root too, holds the same list in its frame 0 (no stack trace recorded).
    const g = graphWith(
      locals(
        [
          [1, 0, 3, 0],
          [1, 13, 0, -1],
        ],
        ['com.acme.Export.run(Export.java:9)'],
      ),
      {
        edges: [[13, 1]],
        roots: [0, 13],
        rootKindOf: new Map([
          [0, 'thread'],
          [13, 'thread'],
        ]),
      },
    );
    const s = memorySummary(g, dominatorTree(g)).suspects[0]!;
    expect(s.subject.index).toBe(1);
    expect(s.stackHolder).toBeUndefined();
    expect(s.subject.stackFrames).toEqual([
      { threadId: '0x1000', depth: 3, frame: 'com.acme.Export.run(Export.java:9)' },
      { threadId: '0x10d0', depth: 0 },
    ]);
  });

  test('a local whose thread the dump has no object for is a root by its frame: that frame is named, without a thread', () => {
    const g = graphWith(locals([[1, -1, 2, 0]], ['com.acme.Export.run(Export.java:9)']), { roots: [1], rootKindOf: new Map([[1, 'java-frame']]) });
    const s = memorySummary(g, dominatorTree(g)).suspects[0]!;
    expect(s.stackHolder?.index).toBe(1);
    expect(stackHolderText(s)).toBe(
      'a local variable of com.acme.Export.run(Export.java:9) in a thread the dump has no object for holds java.util.ArrayList 0x1010 (9.8 KiB)',
    );
  });

  test("a path's step from a thread to its local names that thread's frame, however many frames of other threads hold it too", async () => {
    // Thread 0 holds the list in five frames (the object lists four of them), thread 13 in one; the path starts at 13.
    const frames = ['A.a(A.java:1)', 'A.b(A.java:2)', 'A.c(A.java:3)', 'A.d(A.java:4)', 'A.e(A.java:5)', 'B.run(B.java:7)'];
    const g = graphWith(
      locals(
        [
          [1, 0, 0, 0],
          [1, 0, 1, 1],
          [1, 0, 2, 2],
          [1, 0, 3, 3],
          [1, 0, 4, 4],
          [1, 13, 2, 5],
        ],
        frames,
      ),
      {
        edges: [[13, 1]],
        roots: [13, 0],
        rootKindOf: new Map([
          [0, 'thread'],
          [13, 'thread'],
        ]),
      },
    );
    const analysis = await analyseGraph(
      { graph: g, stepNames: async (paths) => paths.map((p) => p.slice(1).map(() => '(a reference)')) },
      { suspectPaths: true },
    );
    const x = analysis.summary.suspects[0]!;
    expect(x.subject.stackFrames).toHaveLength(4);
    expect(x.subject.moreStackFrames).toBe(2);
    expect(x.path!.map((st) => st.via)).toEqual([undefined, 'a local variable of B.run(B.java:7)', '(a reference)']);
  });

  test('negative control: a graph with no frames names none', () => {
    const { stackLocals: _none, ...g } = graphWith(locals([], []));
    const summary = memorySummary(g, dominatorTree(g));
    expect(summary.suspects.some((x) => x.stackHolder !== undefined)).toBe(false);
    expect(JSON.stringify(summary)).not.toContain('stackFrames');
  });
});

/** The holder as the suspect's detail names it: the tree's row of the collection, its name, id and size (`java.util.ArrayList 0x… (1.4 MiB)`). */
function suspectHolder(rows: readonly UiRow[]): string {
  const row = rows.find((r) => r.tree !== undefined && r.text.includes(`${truth.holder.collection} 0x`))!;
  const [, id] = /(0x[0-9a-f]+)/.exec(row.text)!;
  const [, size] = /^\s*(\S+ \S+)/.exec(row.text)!;
  return `${truth.holder.collection} ${id} (${size})`;
}

/** The schemas' checker, as test/report/json-schema.test.ts makes it (strict: a field the schema does not know fails). */
function schemaCheck() {
  return new Ajv2020.default({ allErrors: true, strict: true, allowUnionTypes: true });
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
