/**
 * The UI's Memory screen: per heap dump, its totals, the leak suspects, its memory waste (when the
 * analysis looked for it), the top of the dominator tree as rows that expand and collapse (each with
 * its path from a GC root in the detail), and the classes by retained size. Every string from the
 * dump goes through stripControl here.
 */
import { approximateBytes } from '../model/bytes.js';
import { countOf, countText, shareText } from '../model/count-text.js';
import type { Finding } from '../model/findings.js';
import {
  biggestHeldText,
  classSuspectText,
  type HeapMemoryModel,
  type PathStep,
  type RetainedObject,
  retainedObjectName,
  type RetainerNode,
  stackFramesText,
  stackHolderText,
} from '../model/memory.js';
import { stripControl as clean } from '../report/sanitize.js';
import { classLoaderRows } from './class-loader-rows.js';
import { memoryWasteRows } from './memory-waste-rows.js';
import type { UiDetailLine, UiRow, UiScreen } from './view-data.js';

/** Tree rows retaining this share of the heap or more start expanded: the big ones are where people look first. */
const OPEN_SHARE = 0.1;
/** Classes listed per heap dump. */
const CLASS_ROWS = 15;

const count = (n: number) => countText(n);
const objectName = (o: RetainedObject) => clean(retainedObjectName(o));

/** A tree row's key: the heap input and the object id (an object sits once in a dominator tree). */
export function memoryRowKey(heap: number, id: string): string {
  return `memory:${heap}:${id}`;
}

/** The steps from a GC root to an object, one line each, as `memory --path` prints them. */
export function pathLines(path: readonly PathStep[] | undefined): UiDetailLine[] {
  if (path === undefined)
    return [{ text: '  not looked up (a heap snapshot carries only the summary): run dumpsleuth memory --path <id> on the HPROF', tone: 'dim' }];
  if (path.length === 0) return [{ text: '  none: no strong path reaches it (held only through weak, soft or phantom references)', tone: 'dim' }];
  return path.map((step, k) => {
    const o = step.object;
    const head = k === 0 ? `GC root (${clean(step.rootKind ?? 'root')}): ` : `${'  '.repeat(Math.min(k, 12))}${clean(step.via ?? '?')} -> `;
    return { text: `  ${head}${objectName(o)} ${clean(o.id)}  retains ${approximateBytes(o.retained)}` };
  });
}

/** Finding ids of the memory-leak-suspect findings, by the heap object ids their evidence names. */
function suspectFindings(findings: readonly Finding[], input: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of findings) {
    if (f.rule !== 'memory-leak-suspect') continue;
    for (const e of f.evidence) if (e.kind === 'heap-object' && e.source === input) out.set(e.id, f.id);
  }
  return out;
}

function findingLink(findingId: string | undefined): UiDetailLine[] {
  return findingId === undefined
    ? []
    : [
        { text: '', tone: 'dim' },
        { text: 'finding', tone: 'title' },
        { text: `  → ${clean(findingId)}`, link: { screen: 'findings', key: findingId } },
      ];
}

function treeRows(heap: number, nodes: readonly RetainerNode[], heapBytes: number, findingOf: ReadonlyMap<string, string>): UiRow[] {
  const rows: UiRow[] = [];
  const walk = (list: readonly RetainerNode[], depth: number, parent: string | undefined) => {
    for (const n of list) {
      const o = n.object;
      const key = memoryRowKey(heap, o.id);
      const dominated = n.children.length + n.more.objects;
      rows.push({
        key,
        // The list draws the indentation and the expand marker, which depend on the UI's state.
        text: `${approximateBytes(o.retained).padStart(10)} ${shareText(o.retained, heapBytes).padStart(6)}  ${objectName(o)} ${clean(o.id)}`,
        tone: o.retained >= heapBytes * OPEN_SHARE ? 'alert' : undefined,
        search: clean(`${retainedObjectName(o)} ${o.id}`).toLowerCase(),
        tree: {
          depth,
          ...(parent !== undefined ? { parent } : {}),
          children: n.children.length,
          ...(o.retained >= heapBytes * OPEN_SHARE && n.children.length > 0 ? { open: true } : {}),
        },
        detail: [
          { text: `${objectName(o)} ${clean(o.id)}`, tone: 'title' },
          {
            text:
              `  retains ${approximateBytes(o.retained)} (${shareText(o.retained, heapBytes)} of the reachable heap); ` +
              `shallow ${approximateBytes(o.shallow)}`,
          },
          {
            text:
              `  dominates ${count(dominated)} object${dominated === 1 ? '' : 's'} directly` +
              (n.more.objects > 0
                ? `; ${n.more.objects === 1 ? 'one of them' : `${count(n.more.objects)} of them`} (${approximateBytes(n.more.bytes)}) ` +
                  `${n.more.objects === 1 ? 'is' : 'are'} too small to list`
                : ''),
            tone: 'dim',
          },
          ...(o.stackFrames !== undefined ? [{ text: `  held by ${clean(stackFramesText(o))}` }] : []),
          { text: '' },
          { text: 'path from a GC root (strong references only)', tone: 'title' },
          ...pathLines(n.path),
          ...findingLink(findingOf.get(o.id)),
        ],
      });
      walk(n.children, depth + 1, key);
    }
  };
  walk(nodes, 0, undefined);
  return rows;
}

function heapRows(m: HeapMemoryModel, heap: number, findings: readonly Finding[]): UiRow[] {
  const s = m.summary;
  const title: UiDetailLine = { text: clean(m.input), tone: 'title' };
  if (s === undefined) {
    return [
      {
        key: `memory:${heap}`,
        text: `${clean(m.input)}: what holds its memory was ${clean(m.skipped ?? 'not computed')}`,
        tone: 'dim',
        search: '',
        detail: [title, { text: `  ${clean(m.skipped ?? 'not computed')}` }],
      },
    ];
  }
  const bytes = s.retainedBytes;
  const findingOf = suspectFindings(findings, m.input);
  const rows: UiRow[] = [
    {
      key: `memory:${heap}`,
      text:
        `${clean(m.input)}: ${count(s.reachableObjects)} reachable objects retain ${approximateBytes(bytes)}; ` +
        `${s.suspects.length === 0 ? 'no leak suspect' : `${s.suspects.length} leak suspect${s.suspects.length === 1 ? '' : 's'}`}`,
      tone: 'title',
      search: clean(m.input).toLowerCase(),
      detail: [
        title,
        {
          text:
            `  ${count(s.objects)} objects, ${approximateBytes(s.shallowBytes)} shallow; ` +
            `${count(s.reachableObjects)} reachable from the GC roots (${approximateBytes(bytes)})`,
        },
        { text: `  unreachable, left out of the tree: ${count(s.unreachable.objects)} objects, ${approximateBytes(s.unreachable.bytes)}` },
        {
          text: `  GC roots: ${
            Object.entries(s.roots)
              .sort((a, b) => b[1] - a[1])
              .map(([k, v]) => `${clean(k)} ${count(v)}`)
              .join(', ') || 'none'
          }`,
          tone: 'dim',
        },
        { text: '  + and - expand and collapse the tree below; the detail of a row shows its path from a GC root', tone: 'dim' },
      ],
    },
  ];
  s.suspects.forEach((x, i) => {
    const who = x.kind === 'object' ? `one ${objectName(x.subject)} ${clean(x.subject.id)}` : clean(classSuspectText(x));
    const a = x.accumulation;
    const held = biggestHeldText(a);
    const where =
      a.chainLinks !== undefined
        ? `the first of ${count(a.chainLinks)} linked nodes`
        : `it directly holds ${countOf(a.dominated, 'object')}${held !== '' ? `, ${clean(held)}` : ''}`;
    const findingId = findingOf.get(x.subject.id) ?? findingOf.get(a.id);
    rows.push({
      key: `memory:${heap}:suspect:${i}`,
      text: `  SUSPECT ${shareText(x.retained, bytes).padStart(6)} ${who} retain${x.kind === 'object' ? 's' : ''} ${approximateBytes(x.retained)}`,
      tone: findingId !== undefined ? 'warning' : 'info',
      search: clean(`suspect ${x.className}`).toLowerCase(),
      detail: [
        { text: `leak suspect: ${who}`, tone: 'title' },
        { text: `  retain${x.kind === 'object' ? 's' : ''} ${approximateBytes(x.retained)}, ${shareText(x.retained, bytes)} of the reachable heap` },
        { text: `  accumulates in ${objectName(a)} ${clean(a.id)} (retains ${approximateBytes(a.retained)}; ${where})` },
        ...(x.stackHolder !== undefined ? [{ text: `  held on a thread's stack: ${clean(stackHolderText(x))}` }] : []),
        { text: `  → ${objectName(x.subject)} ${clean(x.subject.id)} in the tree`, link: { screen: 'memory', key: memoryRowKey(heap, x.subject.id) } },
        { text: '' },
        { text: 'path from a GC root to where it accumulates', tone: 'title' },
        ...pathLines(x.path),
        ...findingLink(findingId),
      ],
    });
  });
  rows.push(...classLoaderRows(m, heap, findings));
  // What the heap spends on nothing, before the tree: the tree is the long part, read last.
  rows.push(...memoryWasteRows(s.waste, heap));
  // An extract carries no tree: its top-level dominators stand alone.
  const tree = m.tree ?? s.dominators.map((object): RetainerNode => ({ object, children: [], more: { objects: 0, bytes: 0 } }));
  rows.push(...treeRows(heap, tree, bytes, findingOf));
  rows.push({
    key: `memory:${heap}:classes`,
    text: '  classes by retained size',
    tone: 'title',
    search: '',
    detail: [{ text: 'A class retains what the set of its instances retains: those not dominated by another instance of it, as MAT counts.' }],
  });
  for (const c of s.classes.slice(0, CLASS_ROWS)) {
    rows.push({
      key: `memory:${heap}:class:${c.className}`,
      text:
        `  ${approximateBytes(c.retained).padStart(10)} ${shareText(c.retained, bytes).padStart(6)}` +
        `  ${clean(c.className)} (${count(c.instances)} instance${c.instances === 1 ? '' : 's'})`,
      search: clean(c.className).toLowerCase(),
      detail: [
        { text: clean(c.className), tone: 'title' },
        {
          text:
            `  ${count(c.instances)} instances, ${approximateBytes(c.shallow)} shallow, ` +
            `${approximateBytes(c.retained)} retained (${shareText(c.retained, bytes)})`,
        },
      ],
    });
  }
  return rows;
}

export function memoryScreen(memory: readonly HeapMemoryModel[], findings: readonly Finding[]): UiScreen {
  return {
    id: 'memory',
    title: 'Memory',
    rows: memory.flatMap((m, i) => heapRows(m, i, findings)),
    empty: 'No HPROF heap dump was given (or its memory analysis was not asked for: --memory).',
  };
}
