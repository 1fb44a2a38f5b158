/**
 * The biggest retainers of a heap as a bar chart (inline SVG, no script): each bar its share of the
 * reachable heap, labelled with the object and its retained size. Every string from the dump escaped.
 */
import { esc } from './html-escape.js';
import type { MemoryRow } from './memory-section.js';

export function retainersChart(retainers: readonly MemoryRow[]): string {
  const rowHeight = 22;
  const labelWidth = 420;
  const barWidth = 360;
  const height = retainers.length * rowHeight + 4;
  const bars = retainers.map((r, k) => {
    const y = k * rowHeight + 2;
    const w = Math.max(1, Math.round(r.share * barWidth));
    const label = `${r.name} ${r.id}`;
    const shown = label.length > 60 ? `${label.slice(0, 59)}…` : label;
    return (
      `<g><title>${esc(`${label}: ${r.retainedText} (${r.shareText})`)}</title><text x="${labelWidth - 6}" y="${y + 15}" ` +
      `text-anchor="end">${esc(shown)}</text><rect x="${labelWidth}" y="${y + 3}" width="${w}" height="${rowHeight - 6}" ` +
      `class="bar"></rect><text x="${labelWidth + w + 6}" y="${y + 15}">${esc(`${r.retainedText} · ${r.shareText}`)}</text></g>`
    );
  });
  return (
    '<svg class="retainers" role="img" aria-label="biggest retainers by retained size" viewBox="0 0 ' +
    `${labelWidth + barWidth + 160} ${height}" width="100%" preserveAspectRatio="xMinYMin meet">${bars.join('')}</svg>`
  );
}
