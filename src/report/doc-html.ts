/**
 * Format-neutral blocks (doc-blocks.ts) as HTML for the self-contained report page: every string
 * escaped (html-escape.ts), figures aligned right in tables.
 */
import type { DocBlock } from './doc-blocks.js';
import { esc } from './html-escape.js';

/** The blocks' HTML; a level-1 heading is an `h{top}`, a level-2 one an `h{top + 1}`. */
export function blocksHtml(blocks: readonly DocBlock[], top: number): string[] {
  return blocks.map((b) => {
    switch (b.kind) {
      case 'heading': {
        const h = `h${Math.min(6, top + b.level - 1)}`;
        return `<${h}>${esc(b.text)}</${h}>`;
      }
      case 'para':
        return b.tone === 'warning' ? `<div class="incomplete">${esc(b.text)}</div>` : `<p${b.tone === 'muted' ? ' class="muted"' : ''}>${esc(b.text)}</p>`;
      case 'list': {
        const tag = b.ordered === true ? 'ol' : 'ul';
        const details = (lines: readonly string[]) => (lines.length > 0 ? `<ul class="details">${lines.map((d) => `<li>${esc(d)}</li>`).join('')}</ul>` : '');
        const items = b.items.map((item) => `<li>${esc(item.text)}${details(item.details ?? [])}</li>`);
        return `<${tag} class="doc">${items.join('')}</${tag}>`;
      }
      case 'table': {
        const right = new Set(b.right ?? []);
        const cell = (tag: 'th' | 'td', text: string, c: number) => `<${tag}${right.has(c) ? ' class="num"' : ''}>${esc(text)}</${tag}>`;
        const rows = [
          `<tr>${b.head.map((h, c) => cell('th', h, c)).join('')}</tr>`,
          ...b.rows.map((r) => `<tr>${r.map((x, c) => cell('td', x, c)).join('')}</tr>`),
        ];
        return `<table class="doc">${rows.join('')}</table>${b.more !== undefined ? `<p class="muted">${esc(b.more)}</p>` : ''}`;
      }
      case 'pre':
        return `<pre class="tree">${b.lines.map(esc).join('\n')}</pre>`;
    }
  });
}
