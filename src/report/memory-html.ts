/**
 * `dumpsleuth memory -f html`: the memory report as one self-contained page (no script, no network),
 * in the style of the analysis report: the text's order (memory-blocks.ts), with the biggest retainers
 * also as a bar chart above the tree, and the longer tables of the waste and growth sections. Every
 * string from the dump is escaped.
 */
import { blocksHtml } from './doc-html.js';
import { esc } from './html-escape.js';
import { pageHead } from './html-page.js';
import { retainersChart } from './html-retainers.js';
import { memoryBlocks } from './memory-blocks.js';
import { TREE_TITLE } from './memory-report-parts.js';
import { retainerRow } from './memory-section.js';
import type { MemoryReport } from './memory-text.js';
import { WASTE_ROWS_LONG } from './memory-waste-section.js';

/** Classes that grew listed in the page (the analysis lists up to its own limit; the JSON has them all). */
const GROWTH_ROWS = 30;

export function renderMemoryHtml(r: MemoryReport): string {
  const blocks = blocksHtml(memoryBlocks(r, { waste: WASTE_ROWS_LONG, growth: GROWTH_ROWS }), 2);
  // The chart goes right under the tree's heading: the same objects, read at a glance.
  const tree = blocks.indexOf(`<h2>${esc(TREE_TITLE)}</h2>`);
  const top = r.tree.map((n) => retainerRow(n.object, r.summary.retainedBytes));
  if (tree >= 0 && top.length > 0) blocks.splice(tree + 1, 0, retainersChart(top));
  return [...pageHead(`dumpsleuth memory ${r.source}`, true), `<h1>dumpsleuth memory ${esc(r.source)}</h1>`, ...blocks, '</body></html>', ''].join('\n');
}
