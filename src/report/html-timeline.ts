/**
 * The series as a picture: one row per thread, one cell per dump, coloured by the thread's state in
 * that dump (blank where the thread was not there). Deadlocked and stuck threads come first and are
 * marked; a long series shows its first rows and says how many it leaves to the JSON report.
 */
import { countText } from '../model/count-text.js';
import type { Model } from '../model/model.js';
import type { JavaThreadState } from '../model/thread-dump.js';
import { esc } from './html-escape.js';
import { seriesMarkText, type SeriesRow } from './series-rows.js';

/** Rows drawn; threads that stayed in one state are drawn only while there is room. */
export const TIMELINE_ROWS = 80;

export function seriesTimeline(model: Model, rows: readonly SeriesRow[], colours: Readonly<Record<JavaThreadState, string>>): string {
  const out: string[] = [];
  model.series.forEach((s, si) => {
    if (s.dumps.length < 2) return;
    const mine = rows.filter((r) => r.series === si);
    const shown = mine.slice(0, TIMELINE_ROWS);
    const labelW = 330;
    const cellW = Math.max(14, Math.min(60, Math.floor(600 / s.dumps.length)));
    const rowH = 16;
    const header = 18;
    const width = labelW + cellW * s.dumps.length + 90;
    const height = header + shown.length * rowH + 4;
    const cells: string[] = s.dumps.map((d, k) => `<text x="${labelW + k * cellW + cellW / 2}" y="12" text-anchor="middle">#${d}</text>`);
    shown.forEach((r, row) => {
      const y = header + row * rowH;
      const name = r.thread.name.length > 46 ? `${r.thread.name.slice(0, 45)}…` : r.thread.name;
      cells.push(`<text x="${labelW - 6}" y="${y + 12}" text-anchor="end">${esc(name)}</text>`);
      r.thread.states.forEach((st, k) => {
        if (st === null) return;
        cells.push(
          `<rect x="${labelW + k * cellW + 1}" y="${y + 1}" width="${cellW - 2}" height="${rowH - 3}"` +
            ` fill="${colours[st]}"><title>${esc(`${r.thread.name} in dump #${s.dumps[k]}: ${st}`)}</title></rect>`,
        );
      });
      const mark = seriesMarkText(r.mark);
      if (mark !== '') cells.push(`<text x="${labelW + cellW * s.dumps.length + 6}" y="${y + 12}" class="mark">${mark}</text>`);
    });
    const span = s.spanSeconds !== null ? ` over ${s.spanSeconds.toFixed(0)} s` : '';
    out.push(`<h3>Series of ${s.dumps.length} dumps${esc(span)}: ${countText(s.threads.length)} threads</h3>`);
    out.push(
      `<svg class="timeline" role="img" aria-label="thread states across the series" viewBox="0 0 ${width} ${height}"` +
        ` width="100%" style="max-width:${width}px" preserveAspectRatio="xMinYMin meet">${cells.join('')}</svg>`,
    );
    if (mine.length > shown.length) {
      const cut = mine.slice(shown.length);
      const steady = cut.filter((r) => r.mark === 'steady').length;
      out.push(
        `<p class="muted">… ${countText(cut.length)} more threads, ${countText(steady)} of them in one state throughout (every thread in the JSON report).</p>`,
      );
    }
  });
  return out.join('\n');
}
