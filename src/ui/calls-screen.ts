/**
 * The Calls screen: every thread's stack merged into one tree (threads/call-tree.ts), from where
 * threads start down to where they are, as a flame graph reads but as rows: each node with how many
 * threads pass through it, the share of all threads, and the states they are in. `+` and `-` open
 * and close a node; `/` finds a frame wherever it sits. In a series a thread counts once per dump.
 */
import { type CallTreeNode, mainState, statesByCount } from '../model/call-tree.js';
import { countText } from '../model/count-text.js';
import type { Model } from '../model/model.js';
import type { JavaThreadState } from '../model/thread-dump.js';
import { stripControl } from '../report/sanitize.js';
import type { Tone, UiDetailLine, UiRow, UiScreen } from './view-data.js';

/** Nodes drawn; callers narrower than MIN_SHARE of all threads are counted in one row per parent. */
const MAX_ROWS = 20_000;
const MIN_SHARE = 0.001;
/** Open at first: the first levels of the widest branches. */
const OPEN_DEPTH = 3;

const STATE_SHORT: Readonly<Record<JavaThreadState, string>> = {
  RUNNABLE: 'run',
  BLOCKED: 'blocked',
  WAITING: 'wait',
  TIMED_WAITING: 'timed',
  NEW: 'new',
  TERMINATED: 'ended',
  UNKNOWN: '?',
};

const statesText = (n: CallTreeNode) =>
  statesByCount(n)
    .map(([s, c]) => `${STATE_SHORT[s]} ${c}`)
    .join(', ');

const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(n * 1000 < of ? 2 : 1)}%`;

export function callsScreen(model: Model): UiScreen {
  const root = model.callTrees.merged;
  const rows: UiRow[] = [];
  if (root.count === 0) return { id: 'calls', title: 'Calls', rows, empty: 'No thread dump was given.' };
  const what = model.dumps.length === 1 ? 'threads' : `thread samples in ${model.dumps.length} dumps`;
  // Depth first, a parent before its children (the tree's rows must come in that order).
  const stack: Array<{ n: CallTreeNode; depth: number; parent: string | undefined; path: readonly string[] }> = root.children
    .slice()
    .reverse()
    .map((n) => ({ n, depth: 0, parent: undefined, path: [] }));
  let id = 0;
  while (stack.length > 0 && rows.length < MAX_ROWS) {
    const { n, depth, parent, path } = stack.pop()!;
    const key = `call:${id++}`;
    const wide = n.children.filter((c) => c.count >= root.count * MIN_SHARE);
    const narrow = n.children.length - wide.length;
    const narrowThreads = n.children.reduce((sum, c) => sum + (c.count < root.count * MIN_SHARE ? c.count : 0), 0);
    const frame = stripControl(n.frame);
    const state = mainState(n);
    const tone: Tone | undefined = state === 'BLOCKED' ? 'warning' : undefined;
    const detail: UiDetailLine[] = [
      { text: frame, tone: 'title' },
      { text: `  ${countText(n.count)} of ${countText(root.count)} ${what} (${pct(n.count, root.count)}) pass through it: ${statesText(n)}` },
      ...(n.self > 0 ? [{ text: `  it is the top frame of ${countText(n.self)}`, tone: 'dim' as Tone }] : []),
      ...(narrow > 0 ? [{ text: `  ${narrow} narrower callees (${countText(narrowThreads)} threads) are not listed`, tone: 'dim' as Tone }] : []),
      ...(path.length > 0
        ? [{ text: "called from (the thread's start first)", tone: 'title' as Tone }, ...path.map((p) => ({ text: `  ${p}`, tone: 'dim' as Tone }))]
        : [{ text: '  where its threads start', tone: 'dim' as Tone }]),
    ];
    rows.push({
      key,
      text: `${String(n.count).padStart(7)} ${pct(n.count, root.count).padStart(6)}  ${frame}  ${statesText(n)}`,
      ...(tone !== undefined ? { tone } : {}),
      search: frame.toLowerCase(),
      detail,
      tree: {
        depth,
        ...(parent !== undefined ? { parent } : {}),
        children: wide.length,
        ...(depth < OPEN_DEPTH && n.count * 10 >= root.count ? { open: true } : {}),
      },
    });
    for (let i = wide.length - 1; i >= 0; i--) stack.push({ n: wide[i]!, depth: depth + 1, parent: key, path: [...path, frame] });
  }
  // Threads with no Java frame (GC, compiler, VM threads) are counted in the total, and said so.
  if (root.self > 0) {
    rows.push({
      key: 'call:no-stack',
      text: `${String(root.self).padStart(7)} ${pct(root.self, root.count).padStart(6)}  (no Java frames: the JVM's own threads)`,
      tone: 'dim',
      search: 'no java frames',
      detail: [{ text: `${countText(root.self)} ${what} have no Java stack: GC, JIT compiler and VM threads`, tone: 'title' }],
      tree: { depth: 0, children: 0 },
    });
  }
  const cut = stack.length;
  if (cut > 0)
    rows.push({
      key: 'call:more',
      text: `… ${countText(cut)} more call paths not listed (the HTML report's flame graph draws them)`,
      tone: 'dim',
      search: '',
      detail: [],
    });
  return { id: 'calls', title: 'Calls', rows, empty: 'No thread dump was given.' };
}
