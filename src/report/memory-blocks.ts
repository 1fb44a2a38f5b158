/**
 * The whole memory report (`dumpsleuth memory`) as format-neutral blocks, for its Markdown and HTML:
 * in the text's order (the answer first): the dump read in part and the warnings, the leak suspects
 * with their paths, with --baseline what grew, the --path answer, the memory waste, the classes by
 * retained size, the class loaders, the dominator tree, how the figures were made. Raw text.
 */
import { countText } from '../model/count-text.js';
import { classLoaderBlocks } from './class-loaders-report.js';
import type { DocBlock } from './doc-blocks.js';
import { approximateBytes } from './heap-size-text.js';
import { growthBlocks } from './memory-growth-blocks.js';
import { heapDetailLines, NO_SUSPECTS, pct, rootPathLines, rootPathTitle, suspectItem, TREE_TITLE, treeLines } from './memory-report-parts.js';
import type { MemoryReport } from './memory-text.js';
import { wasteBlocks } from './memory-waste-section.js';

/** Rows of the tables that are cut (waste, growth); the text's 5 in Markdown, more in HTML. */
export interface MemoryBlockRows {
  readonly waste: number;
  readonly growth: number;
}

/** The heap in one line, as the text's second line says it. */
function heapLine(r: MemoryReport): string {
  const s = r.summary;
  return (
    `heap: ${countText(s.objects)} objects, ${approximateBytes(s.shallowBytes)} shallow; ` +
    `${countText(s.reachableObjects)} reachable from the GC roots (${approximateBytes(s.retainedBytes)})`
  );
}

/** Everything under the report's title, which each format draws its own way. */
export function memoryBlocks(r: MemoryReport, rows: MemoryBlockRows): DocBlock[] {
  const s = r.summary;
  const heap = s.retainedBytes;
  const out: DocBlock[] = [];
  if (r.cut !== undefined)
    out.push({ kind: 'para', tone: 'warning', text: `Incomplete: the heap dump was read only in part, and what follows is of that part: ${r.cut}` });
  out.push({ kind: 'para', text: heapLine(r) });
  for (const w of r.warnings) out.push({ kind: 'para', tone: 'warning', text: `warning: ${w}` });
  if (s.suspects.length === 0) out.push({ kind: 'heading', level: 1, text: NO_SUSPECTS });
  else out.push({ kind: 'heading', level: 1, text: 'Leak suspects' }, { kind: 'list', ordered: true, items: s.suspects.map((x) => suspectItem(x, heap)) });
  if (r.growth !== undefined) out.push(...growthBlocks(r.growth, rows.growth));
  if (r.path !== undefined) out.push({ kind: 'heading', level: 1, text: rootPathTitle(r.path.target) }, { kind: 'pre', lines: rootPathLines(r.path.steps) });
  if (s.waste !== undefined) out.push(...wasteBlocks(s.waste, rows.waste));
  out.push(
    { kind: 'heading', level: 1, text: 'Classes by retained size (instances not dominated by another instance of the class)' },
    {
      kind: 'table',
      head: ['retained', 'share', 'shallow', 'instances', 'class'],
      right: [0, 1, 2, 3],
      rows: s.classes.map((c) => [approximateBytes(c.retained), pct(c.retained, heap), approximateBytes(c.shallow), countText(c.instances), c.className]),
    },
    ...classLoaderBlocks(s.classLoaders),
    { kind: 'heading', level: 1, text: TREE_TITLE },
    { kind: 'pre', lines: treeLines(r.tree, heap) },
    { kind: 'heading', level: 1, text: 'Heap details' },
    { kind: 'list', items: heapDetailLines(s).map((text) => ({ text })) },
  );
  return out;
}
