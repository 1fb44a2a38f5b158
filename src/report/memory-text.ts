/**
 * The memory report: what holds the memory of a heap dump, as text (the answer first: the leak
 * suspects, and with --baseline what grew; then the classes by retained size, the tree of the biggest
 * retainers, and how the figures were made) and as the `dumpsleuth.memory/1` JSON.
 * Draws what it is given; names from the dump are stripped of control sequences.
 */
import { countText } from '../model/count-text.js';
import type { MemorySummary, PathStep, RetainerNode } from '../model/memory.js';
import type { MemoryGrowth } from '../model/memory-growth.js';
import { classLoaderLines, classLoadersJson } from './class-loaders-report.js';
import { blocksText } from './doc-text.js';
import { approximateBytes } from './heap-size-text.js';
import { growthJson, growthText } from './memory-growth-text.js';
import { objectJson, stepJson } from './memory-object-json.js';
import { heapDetailLines, NO_SUSPECTS, rootPathLines, rootPathTitle, suspectItem, TREE_TITLE, treeLines } from './memory-report-parts.js';
import { stackHolderJson } from './memory-stack-frames.js';
import { wasteJson } from './memory-waste-json.js';
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
  out.push('', s.suspects.length === 0 ? NO_SUSPECTS : 'Leak suspects');
  s.suspects.forEach((x, i) => {
    const item = suspectItem(x, heap);
    out.push(`  ${i + 1}. ${stripControl(item.text)}`, ...(item.details ?? []).map((d) => `     ${stripControl(d)}`));
  });
  if (r.growth !== undefined) out.push(...growthText(r.growth));
  if (r.path !== undefined) out.push('', stripControl(rootPathTitle(r.path.target)), ...rootPathLines(r.path.steps).map((l) => `  ${stripControl(l)}`));
  if (s.waste !== undefined) out.push(...blocksText(wasteBlocks(s.waste, WASTE_ROWS_SHORT)));
  out.push('', 'Classes by retained size (instances not dominated by another instance of the class)');
  out.push(`  ${'retained'.padStart(10)}  ${'shallow'.padStart(10)}  ${'instances'.padStart(10)}  class`);
  for (const c of s.classes)
    out.push(
      `  ${approximateBytes(c.retained).padStart(10)}  ${approximateBytes(c.shallow).padStart(10)}` +
        `  ${countText(c.instances).padStart(10)}  ${stripControl(c.className)}`,
    );
  out.push(...classLoaderLines(s.classLoaders).map(stripControl));
  out.push('', TREE_TITLE);
  out.push(...treeLines(r.tree, heap).map((l) => `  ${stripControl(l)}`));
  // How the figures were made comes last: the answer first (issue 49).
  out.push('', 'Heap details', ...heapDetailLines(s).map((l) => `  ${stripControl(l)}`));
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
    ...(s.waste !== undefined ? { waste: wasteJson(s.waste) } : {}),
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
