/**
 * Format-neutral blocks (doc-blocks.ts) as Markdown for a ticket: every string escaped (md-escape.ts),
 * tables as pipe tables, preformatted lines in a fence no line can close.
 */
import type { DocBlock } from './doc-blocks.js';
import { fenced, mdText } from './md-escape.js';
import { stripControl } from './sanitize.js';

/** The blocks' Markdown lines; a level-1 heading is `top` hashes deep, a level-2 one a hash deeper. */
export function blocksMarkdown(blocks: readonly DocBlock[], top: number): string[] {
  const out: string[] = [];
  for (const b of blocks) {
    switch (b.kind) {
      case 'heading':
        out.push(`${'#'.repeat(top + b.level - 1)} ${mdText(b.text)}`, '');
        break;
      case 'para':
        out.push(b.tone === 'warning' ? `> [!WARNING]\n> ${mdText(b.text)}` : b.tone === 'muted' ? `_${mdText(b.text)}_` : mdText(b.text), '');
        break;
      case 'list':
        b.items.forEach((item, i) => {
          out.push(`${b.ordered === true ? `${i + 1}.` : '-'} ${mdText(item.text)}`);
          for (const d of item.details ?? []) out.push(`   - ${mdText(d)}`);
        });
        out.push('');
        break;
      case 'table': {
        const right = new Set(b.right ?? []);
        const row = (cells: readonly string[]) => `| ${cells.map((c) => mdText(c) || ' ').join(' | ')} |`;
        out.push(row(b.head), `| ${b.head.map((_, c) => (right.has(c) ? '---:' : '---')).join(' | ')} |`, ...b.rows.map(row));
        if (b.more !== undefined) out.push('', `_${mdText(b.more)}_`);
        out.push('');
        break;
      }
      case 'pre':
        out.push(fenced(b.lines.map(stripControl).join('\n')), '');
        break;
    }
  }
  return out;
}
