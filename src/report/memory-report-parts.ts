/**
 * The parts of the memory report every format words the same (the text of memory-text.ts, the
 * Markdown and HTML of memory-blocks.ts): a suspect and where its memory is held, the --path answer,
 * the top of the dominator tree, how the figures were made. Raw text: each renderer strips or escapes it.
 */
import { approximateBytes } from '../model/bytes.js';
import { countOf, countText, shareText } from '../model/count-text.js';
import {
  biggestHeldText,
  classSuspectText,
  type LeakSuspect,
  type MemorySummary,
  type PathStep,
  type RetainedObject,
  retainedObjectName,
  type RetainerNode,
  stackFramesText,
  stackHolderText,
} from '../model/memory.js';
import type { DocItem } from './doc-blocks.js';
import { rootPathText } from './memory-path-text.js';

/** A part of the reachable heap, `-` when there is none to be a part of. */
export const pct = (part: number, whole: number) => (whole > 0 ? shareText(part, whole) : '-');

/** A suspect as every format lists it: who retains how much, then where it is held and where its memory accumulates. Raw text. */
export function suspectItem(x: LeakSuspect, heap: number): DocItem {
  const who = x.kind === 'object' ? `one ${retainedObjectName(x.subject)} ${x.subject.id}` : classSuspectText(x);
  const details: string[] = [];
  if (x.stackHolder !== undefined) details.push(`held on a thread's stack: ${stackHolderText(x)}`);
  const a = x.accumulation;
  const held = biggestHeldText(a);
  if (a.chainLinks !== undefined)
    details.push(
      `the memory accumulates in ${retainedObjectName(a)} ${a.id}, the first of ${countText(a.chainLinks)} linked nodes: ` +
        `it retains ${approximateBytes(a.retained)}`,
    );
  else if (a.index !== x.subject.index)
    details.push(
      `the memory accumulates in ${retainedObjectName(a)} ${a.id}: it retains ` +
        `${approximateBytes(a.retained)} and directly holds ${countOf(a.dominated, 'object')}${held !== '' ? `, ${held}` : ''}`,
    );
  else details.push(`it directly holds ${countOf(a.dominated, 'object')}, none of which retains most of it${held !== '' ? `; ${held}` : ''}`);
  if (x.path !== undefined && x.path.length > 0) details.push(`kept by: ${rootPathText(x.path)}`);
  return { text: `${who} retain${x.kind === 'object' ? 's' : ''} ${approximateBytes(x.retained)} (${pct(x.retained, heap)} of the heap)`, details };
}

export const NO_SUSPECTS = 'Leak suspects: none (no object or class retains 10% of the heap)';

export const rootPathTitle = (target: string) =>
  `Shortest path from a GC root to ${target} (strong references only; weak, soft and phantom referents do not count)`;

/** The --path answer, one step a line, each indented one more than the step before. Raw text. */
export function rootPathLines(steps: readonly PathStep[]): string[] {
  if (steps.length === 0) return ['none: no strong path reaches it (only references of those kinds, or it is unreachable)'];
  return steps.map((step, k) => {
    const o = step.object;
    const head = k === 0 ? `GC root (${step.rootKind ?? 'root'}): ` : `${'  '.repeat(Math.min(k, 12))}${step.via ?? '?'} -> `;
    return `${head}${retainedObjectName(o)} ${o.id}  retains ${approximateBytes(o.retained)}`;
  });
}

export const TREE_TITLE = 'Biggest retainers (the dominator tree: retained, share of the reachable heap, shallow, object)';

/** The top of the dominator tree, a node a line indented by its depth. Raw text. */
export function treeLines(tree: readonly RetainerNode[], heap: number): string[] {
  const out: string[] = [];
  const line = (o: RetainedObject, prefix: string) =>
    `${prefix}${approximateBytes(o.retained).padStart(10)}  ${pct(o.retained, heap).padStart(6)}` +
    `  ${approximateBytes(o.shallow).padStart(10)}  ${retainedObjectName(o)} ${o.id}${o.stackFrames !== undefined ? `  held by ${stackFramesText(o, 1)}` : ''}`;
  const walk = (nodes: readonly RetainerNode[], depth: number) => {
    for (const n of nodes) {
      out.push(line(n.object, '  '.repeat(depth)));
      walk(n.children, depth + 1);
      if (n.more.objects > 0) out.push(`${'  '.repeat(depth + 1)}… ${countText(n.more.objects)} more dominated objects, ${approximateBytes(n.more.bytes)}`);
    }
  };
  walk(tree, 0);
  return out;
}

/** How the figures were made: what the tree leaves out, the GC roots, the object layout. Raw text. */
export function heapDetailLines(s: MemorySummary): string[] {
  const roots =
    Object.entries(s.roots)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${countText(v)}`)
      .join(', ') || 'none';
  const out = [
    `unreachable (left out of the tree): ${countText(s.unreachable.objects)} objects, ${approximateBytes(s.unreachable.bytes)}`,
    `GC roots: ${roots}${s.missingReferences > 0 ? `; ${countText(s.missingReferences)} references to objects not in the dump were ignored` : ''}`,
  ];
  if (s.sizeModel !== undefined) out.push(`object sizes: ${s.sizeModel.summary} (${s.sizeModel.reasons.join('; ')})`);
  return out;
}
