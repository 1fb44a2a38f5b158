/**
 * `dumpsleuth memory -f markdown`: the memory report for a ticket, in the text's order (memory-blocks.ts),
 * every string from the dump escaped. It stays under the 65,536 characters trackers accept: the
 * dominator tree, the longest part, is cut first, with a note saying so.
 */
import type { DocBlock } from './doc-blocks.js';
import { blocksMarkdown } from './doc-markdown.js';
import { MARKDOWN_LIMIT } from './markdown.js';
import { mdText } from './md-escape.js';
import { memoryBlocks } from './memory-blocks.js';
import { TEXT_CLASSES } from './memory-growth-text.js';
import type { MemoryReport } from './memory-text.js';
import { WASTE_ROWS_SHORT } from './memory-waste-section.js';

/** Tree lines kept when the report must shrink, most first. */
const TREE_CUTS = [Infinity, 200, 100, 50, 20, 0];

function page(r: MemoryReport, blocks: readonly DocBlock[]): string {
  return [`## dumpsleuth memory ${mdText(r.source)}`, '', ...blocksMarkdown(blocks, 3), ''].join('\n');
}

export function renderMemoryMarkdown(r: MemoryReport): string {
  const blocks = memoryBlocks(r, { waste: WASTE_ROWS_SHORT, growth: TEXT_CLASSES });
  let text = '';
  for (const keep of TREE_CUTS) {
    const cut = blocks.map((b): DocBlock =>
      b.kind === 'pre' && b.lines.length > keep
        ? {
            kind: 'pre',
            lines: [...b.lines.slice(0, keep), `… ${b.lines.length - keep} more lines, cut to keep the report under ${MARKDOWN_LIMIT} characters`],
          }
        : b,
    );
    text = page(r, cut);
    if (text.length <= MARKDOWN_LIMIT) return text;
  }
  return text.slice(0, MARKDOWN_LIMIT - 80) + '\n\n… the report was cut at 65,536 characters.\n';
}
