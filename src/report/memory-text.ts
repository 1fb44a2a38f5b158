/**
 * The memory report: what holds the memory of a heap dump, as text (the answer first: the leak
 * suspects, and with --baseline what grew; then the classes by retained size, the tree of the biggest
 * retainers, and how the figures were made) and as the `dumpsleuth.memory/1` JSON.
 * Draws what it is given; names from the dump are stripped of control sequences.
 */
import { countOf, countText, shareText } from '../model/count-text.js';
import type { RetainerNode } from '../model/memory.js';
import { biggestHeldText, classSuspectText, type MemorySummary, type PathStep, type RetainedObject, retainedObjectName } from '../model/memory.js';
import { stackFramesText, stackHolderText } from '../model/memory.js';
import type { MemoryGrowth } from '../model/memory-growth.js';
import { classLoaderLines, classLoadersJson } from './class-loaders-report.js';
import { blocksText } from './doc-text.js';
import { approximateBytes } from './heap-size-text.js';
import { growthJson, growthText } from './memory-growth-text.js';
import { objectJson, stepJson } from './memory-object-json.js';
import { stackHolderJson } from './memory-stack-frames.js';
import { WASTE_ROWS_SHORT, wasteBlocks } from './memory-waste-section.js';
import { stripControl } from './sanitize.js';

const MEMORY_SCHEMA = 'dumpsleuth.memory/1';

export interface MemoryReport {
  readonly source: string;
  /** With --path: the shortest strong path from a GC root to the object asked for (empty: none). */
  readonly path?: { readonly target: string; readonly steps: readonly PathStep[] };
  readonly summary: MemorySummary;
  readonly tree: RetainerNode[];
  readonly warnings: readonly string[];
  /** Why the dump was not read whole: the figures are of what was read. */
  readonly cut?: string;
  /** With --baseline: what grew since the older dumps (this report's heap is the newest). */
  readonly growth?: MemoryGrowth;
}

const pct = (part: number, whole: number) => (whole > 0 ? shareText(part, whole) : '-');
const name = (o: RetainedObject) => stripControl(retainedObjectName(o));

export function renderMemoryText(r: MemoryReport): string {
  const s = r.summary;
  const heap = s.retainedBytes;
  const out: string[] = [`dumpsleuth memory ${stripControl(r.source)}`];
  if (r.cut !== undefined) out.push(`Incomplete: the heap dump was read only in part, and what follows is of that part: ${stripControl(r.cut)}`);
  out.push(
    `heap: ${countText(s.objects)} objects, ${approximateBytes(s.shallowBytes)} shallow; ` +
      `${countText(s.reachableObjects)} reachable from the GC roots (${approximateBytes(heap)})`,
  );
  for (const w of r.warnings) out.push(`warning: ${stripControl(w)}`);
  // What leaks first: the suspects are what the user came for, the tree is how to read them.
  out.push('', s.suspects.length === 0 ? 'Leak suspects: none (no object or class retains 10% of the heap)' : 'Leak suspects');
  s.suspects.forEach((x, i) => {
    const who = x.kind === 'object' ? `one ${name(x.subject)} ${x.subject.id}` : stripControl(classSuspectText(x));
    out.push(`  ${i + 1}. ${who} retain${x.kind === 'object' ? 's' : ''} ${approximateBytes(x.retained)} (${pct(x.retained, heap)} of the heap)`);
    if (x.stackHolder !== undefined) out.push(`     held on a thread's stack: ${stripControl(stackHolderText(x))}`);
    const a = x.accumulation;
    const held = biggestHeldText(a);
    if (a.chainLinks !== undefined)
      out.push(
        `     the memory accumulates in ${name(a)} ${a.id}, the first of ${countText(a.chainLinks)} linked nodes: it retains ${approximateBytes(a.retained)}`,
      );
    else if (a.index !== x.subject.index)
      out.push(
        `     the memory accumulates in ${name(a)} ${a.id}: it retains ` +
          `${approximateBytes(a.retained)} and directly holds ${countOf(a.dominated, 'object')}` +
          `${held !== '' ? `, ${stripControl(held)}` : ''}`,
      );
    else out.push(`     it directly holds ${countOf(a.dominated, 'object')}, none of which retains most of it${held !== '' ? `; ${stripControl(held)}` : ''}`);
    if (x.path !== undefined && x.path.length > 0)
      out.push(
        '     kept by: ' +
          x.path
            .map((st, k) => (k === 0 ? `GC root (${st.rootKind ?? 'root'}) ${name(st.object)}` : `${stripControl(st.via ?? '?')} -> ${name(st.object)}`))
            .join(' -> '),
      );
  });
  if (r.growth !== undefined) out.push(...growthText(r.growth));
  if (r.path !== undefined) {
    out.push('', `Shortest path from a GC root to ${stripControl(r.path.target)} (strong references only; weak, soft and phantom referents do not count)`);
    if (r.path.steps.length === 0) out.push('  none: no strong path reaches it (only references of those kinds, or it is unreachable)');
    r.path.steps.forEach((step, k) => {
      const o = step.object;
      const head = k === 0 ? `GC root (${step.rootKind ?? 'root'}): ` : `${'  '.repeat(Math.min(k, 12))}${stripControl(step.via ?? '?')} -> `;
      out.push(`  ${head}${name(o)} ${o.id}  retains ${approximateBytes(o.retained)}`);
    });
  }
  if (s.waste !== undefined) out.push(...blocksText(wasteBlocks(s.waste, WASTE_ROWS_SHORT)));
  out.push('', 'Classes by retained size (instances not dominated by another instance of the class)');
  out.push(`  ${'retained'.padStart(10)}  ${'shallow'.padStart(10)}  ${'instances'.padStart(10)}  class`);
  for (const c of s.classes)
    out.push(
      `  ${approximateBytes(c.retained).padStart(10)}  ${approximateBytes(c.shallow).padStart(10)}` +
        `  ${countText(c.instances).padStart(10)}  ${stripControl(c.className)}`,
    );
  out.push(...classLoaderLines(s.classLoaders).map(stripControl));
  out.push('', 'Biggest retainers (the dominator tree: retained, share of the reachable heap, shallow, object)');
  const line = (o: RetainedObject, prefix: string) =>
    `${prefix}${approximateBytes(o.retained).padStart(10)}  ${pct(o.retained, heap).padStart(6)}` +
    `  ${approximateBytes(o.shallow).padStart(10)}  ${name(o)} ${o.id}${o.stackFrames !== undefined ? `  held by ${stripControl(stackFramesText(o, 1))}` : ''}`;
  const walk = (nodes: readonly RetainerNode[], depth: number) => {
    for (const n of nodes) {
      out.push(line(n.object, '  '.repeat(depth + 1)));
      walk(n.children, depth + 1);
      if (n.more.objects > 0) out.push(`${'  '.repeat(depth + 2)}… ${countText(n.more.objects)} more dominated objects, ${approximateBytes(n.more.bytes)}`);
    }
  };
  walk(r.tree, 0);
  // How the figures were made comes last: the answer first (issue 49).
  out.push(
    '',
    'Heap details',
    `  unreachable (left out of the tree): ${countText(s.unreachable.objects)} objects, ${approximateBytes(s.unreachable.bytes)}`,
    `  GC roots: ${
      Object.entries(s.roots)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${countText(v)}`)
        .join(', ') || 'none'
    }${s.missingReferences > 0 ? `; ${countText(s.missingReferences)} references to objects not in the dump were ignored` : ''}`,
  );
  if (s.sizeModel !== undefined) out.push(`  object sizes: ${s.sizeModel.summary} (${s.sizeModel.reasons.join('; ')})`);
  return out.join('\n') + '\n';
}

/** The summary's part of `dumpsleuth.memory/1`, which the analysis report's `model.memory` repeats per heap input. */
export function memorySummaryJson(s: MemorySummary) {
  return {
    heap: {
      objects: s.objects,
      reachableObjects: s.reachableObjects,
      shallowBytes: s.shallowBytes,
      retainedBytes: s.retainedBytes,
      unreachable: s.unreachable,
      roots: s.roots,
      missingReferences: s.missingReferences,
      ...(s.sizeModel !== undefined ? { sizeModel: { summary: s.sizeModel.summary, reasons: [...s.sizeModel.reasons] } } : {}),
    },
    dominators: s.dominators.map(objectJson),
    classes: s.classes.map((c) => ({ class: c.className, instances: c.instances, shallow: c.shallow, retained: c.retained })),
    suspects: s.suspects.map((x) => ({
      kind: x.kind,
      class: x.className,
      instances: x.instances,
      ...(x.classInstances !== undefined ? { classInstances: x.classInstances } : {}),
      retained: x.retained,
      share: Number(x.share.toFixed(4)),
      subject: objectJson(x.subject),
      accumulation: {
        ...objectJson(x.accumulation),
        dominated: x.accumulation.dominated,
        ...(x.accumulation.chainLinks !== undefined ? { chainLinks: x.accumulation.chainLinks } : {}),
        ...(x.accumulation.biggest !== undefined ? { biggest: x.accumulation.biggest.map(objectJson) } : {}),
      },
      ...(x.path !== undefined ? { path: x.path.map(stepJson) } : {}),
      ...stackHolderJson(x, objectJson),
    })),
    ...(s.classLoaders !== undefined ? { classLoaders: classLoadersJson(s.classLoaders) } : {}),
  };
}

export function renderMemoryJson(r: MemoryReport): string {
  const doc = {
    schema: MEMORY_SCHEMA,
    source: r.source,
    // Whether the whole dump was read; when not, `cut` says why and every figure is of the part read.
    complete: r.cut === undefined,
    ...(r.cut !== undefined ? { cut: r.cut } : {}),
    ...memorySummaryJson(r.summary),
    ...(r.path !== undefined ? { path: { target: r.path.target, steps: r.path.steps.map(stepJson) } } : {}),
    ...(r.growth !== undefined ? { growth: growthJson(r.growth) } : {}),
    warnings: r.warnings,
  };
  return JSON.stringify(doc, null, 2) + '\n';
}
