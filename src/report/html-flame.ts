/**
 * A flame graph of threads' stacks as inline SVG (no script: it opens from a ticket attachment with
 * JavaScript off). The thread's start is at the bottom, the top frames at the top; a frame is as wide
 * as the threads that pass through it, coloured by the state most of them are in, and its tooltip
 * (an SVG title) gives the full frame and the count per state. Frames too narrow to see are left out,
 * and the graph says how many.
 */
import { type CallTreeNode, mainState, statesByCount } from '../model/call-tree.js';
import { countOf, countText } from '../model/count-text.js';
import type { JavaThreadState } from '../model/thread-dump.js';
import { esc } from './html-escape.js';

/** Drawing units across (the SVG scales to the page); a frame narrower than MIN_WIDTH units is not drawn. */
const WIDTH = 1200;
const ROW = 17;
const MIN_WIDTH = 1.5;
/** Stacks deeper than this are cut at the top (said under the graph): a graph at most about 1,000 units tall. */
const MAX_DEPTH = 60;
/** About one character of the 11px label per this many units. */
const CHAR_UNITS = 6.6;

/** `com.example.Foo$Bar.baz` → `Foo$Bar.baz`: what fits in a frame box; the tooltip has the full name. */
function shortFrame(frame: string): string {
  const method = frame.lastIndexOf('.');
  const cls = method > 0 ? frame.lastIndexOf('.', method - 1) : -1;
  return cls >= 0 ? frame.slice(cls + 1) : frame;
}

const stateText = (n: CallTreeNode) =>
  statesByCount(n)
    .map(([s, c]) => `${s} ${c}`)
    .join(', ');

/** One box of the graph: its tooltip, and its label cut to what fits (none when not 4 characters do). */
function frameBox(x: number, y: number, w: number, label: string, title: string, fill: string): string {
  const fits = Math.floor((w - 4) / CHAR_UNITS);
  const shown = fits >= label.length ? label : fits >= 4 ? `${label.slice(0, fits - 1)}…` : '';
  return (
    `<g><title>${esc(title)}</title><rect x="${x.toFixed(1)}" y="${y}" width="${(w - 0.5).toFixed(1)}" height="${ROW - 1}" fill="${fill}" rx="2"></rect>` +
    (shown !== '' ? `<text x="${(x + 3).toFixed(1)}" y="${y + ROW - 5}">${esc(shown)}</text>` : '') +
    '</g>'
  );
}

/** The frames of a node's subtree, itself included. */
function subtreeSize(n: CallTreeNode): number {
  let size = 0;
  const stack = [n];
  while (stack.length > 0) {
    size++;
    stack.push(...stack.pop()!.children);
  }
  return size;
}

export function flameGraph(root: CallTreeNode, colours: Readonly<Record<JavaThreadState, string>>, what: string): string {
  if (root.count === 0) return '';
  const boxes: string[] = [];
  let hidden = 0;
  let cut = 0;
  let depth = 0;
  let frameless: { x: number; w: number } | undefined;
  // Depth-first, each node placed at its parent's left edge plus its elder siblings' widths.
  const stack: Array<{ n: CallTreeNode; x: number; level: number }> = [{ n: root, x: 0, level: 0 }];
  const placed: Array<{ n: CallTreeNode; x: number; w: number; level: number }> = [];
  while (stack.length > 0) {
    const { n, x, level } = stack.pop()!;
    const w = (n.count / root.count) * WIDTH;
    if (w < MIN_WIDTH) {
      hidden++;
      continue;
    }
    if (level >= MAX_DEPTH) {
      cut += subtreeSize(n);
      continue;
    }
    placed.push({ n, x, w, level });
    depth = Math.max(depth, level + 1);
    let cx = x;
    const next: Array<{ n: CallTreeNode; x: number; level: number }> = [];
    for (const c of n.children) {
      next.push({ n: c, x: cx, level: level + 1 });
      cx += (c.count / root.count) * WIDTH;
    }
    for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]!);
    // Threads whose stack has no frame (a JVM's own threads in some dumps) end at the root: a box
    // says so where they would be, rather than a gap.
    if (n === root && n.self > 0 && (n.self / root.count) * WIDTH >= MIN_WIDTH) {
      frameless = { x: cx, w: (n.self / root.count) * WIDTH };
      depth = Math.max(depth, 2);
    }
  }
  const height = depth * ROW;
  for (const { n, x, w, level } of placed) {
    const title = n === root ? `${what}: ${stateText(n)}` : `${n.frame}: ${n.count} (${stateText(n)})${n.self > 0 ? `; top frame of ${n.self}` : ''}`;
    const fill = n === root ? '#d0d7de' : colours[mainState(n)];
    boxes.push(frameBox(x, height - (level + 1) * ROW, w, n === root ? what : shortFrame(n.frame), title, fill));
  }
  if (frameless !== undefined)
    boxes.push(
      frameBox(
        frameless.x,
        height - 2 * ROW,
        frameless.w,
        `no frames: ${countText(root.self)}`,
        `${countOf(root.self, 'thread')} with no frames in their stack`,
        '#eaeef2',
      ),
    );
  const notes = [
    ...(hidden > 0 ? [`${countText(hidden)} frames too narrow to draw`] : []),
    ...(cut > 0 ? [`stacks cut at ${MAX_DEPTH} frames deep (${countText(cut)} frames above)`] : []),
  ];
  return (
    `<svg class="flame" role="img" aria-label="${esc(`flame graph of ${what}`)}" viewBox="0 0 ` +
    `${WIDTH} ${height}" width="100%" preserveAspectRatio="xMinYMin meet">${boxes.join('')}</svg>` +
    (notes.length > 0 ? `<p class="muted">Not drawn: ${esc(notes.join('; '))}. The thread groups below and the JSON report have every stack.</p>` : '')
  );
}
