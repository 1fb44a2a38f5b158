/**
 * Format-neutral blocks (doc-blocks.ts) as lines of the text report: a section's title at the margin,
 * its content indented, tables in padded columns. Untrusted text is stripped of control sequences.
 */
import type { DocBlock } from './doc-blocks.js';
import { stripControl } from './sanitize.js';

/** Lines of the text report, a blank line before each section. */
export function blocksText(blocks: readonly DocBlock[]): string[] {
  const out: string[] = [];
  for (const b of blocks) {
    switch (b.kind) {
      case 'heading':
        out.push('', b.level === 1 ? stripControl(b.text) : `  ${stripControl(b.text)}`);
        break;
      case 'para':
        out.push(`  ${b.tone === 'warning' ? 'warning: ' : ''}${stripControl(b.text)}`);
        break;
      case 'list':
        b.items.forEach((item, i) => {
          const mark = b.ordered === true ? `${i + 1}. ` : '- ';
          out.push(`  ${mark}${stripControl(item.text)}`);
          for (const d of item.details ?? []) out.push(`  ${' '.repeat(mark.length)}${stripControl(d)}`);
        });
        break;
      case 'table':
        out.push(...tableLines(b));
        break;
      case 'pre':
        out.push(...b.lines.map((l) => `  ${stripControl(l)}`));
        break;
    }
  }
  return out;
}

/** Columns padded to their widest cell; the last column is left as it is (a name, which may be long). */
function tableLines(t: Extract<DocBlock, { kind: 'table' }>): string[] {
  const rows = [t.head, ...t.rows].map((r) => r.map(stripControl));
  const widths = t.head.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  const right = new Set(t.right ?? []);
  const last = t.head.length - 1;
  const lines = rows.map((r) =>
    `    ${r.map((cell, c) => (c === last ? cell : right.has(c) ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join('  ')}`.trimEnd(),
  );
  if (t.more !== undefined) lines.push(`    ${stripControl(t.more)}`);
  return lines;
}
