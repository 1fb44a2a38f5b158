/**
 * The threads of a series in the order a reader wants them: deadlocked first, then stuck (the
 * stuck-threads finding's threads), then those blocked in some dump, then those whose state changed,
 * then the rest; each with its mark. The UI's Series screen and the HTML timeline both list them so.
 */
import type { Finding } from '../model/findings.js';
import type { Model, SeriesThreadModel } from '../model/model.js';

export type SeriesMark = 'deadlocked' | 'stuck' | 'blocked' | 'changed' | 'steady';

export interface SeriesRow {
  readonly series: number;
  readonly thread: SeriesThreadModel;
  readonly mark: SeriesMark;
}

const RANK: Readonly<Record<SeriesMark, number>> = { deadlocked: 0, stuck: 1, blocked: 2, changed: 3, steady: 4 };

export function seriesRows(model: Model, findings: readonly Finding[]): SeriesRow[] {
  const stuck = new Set(findings.filter((f) => f.rule === 'stuck-threads').flatMap((f) => f.evidence.flatMap((e) => (e.kind === 'thread' ? [e.thread] : []))));
  const deadlocked = new Set(model.locks.deadlocks.flatMap((d) => d.threads.map((t) => `${d.dump}\u0000${t.thread}`)));
  const rows: SeriesRow[] = [];
  model.series.forEach((s, series) => {
    for (const t of s.threads) {
      const inDeadlock = t.indexes.some((ti, pos) => ti !== null && deadlocked.has(`${s.dumps[pos]}\u0000${ti}`));
      const present = t.states.filter((x) => x !== null);
      const mark: SeriesMark = inDeadlock
        ? 'deadlocked'
        : stuck.has(t.name)
          ? 'stuck'
          : present.includes('BLOCKED')
            ? 'blocked'
            : new Set(present).size > 1 || present.length < t.states.length
              ? 'changed'
              : 'steady';
      rows.push({ series, thread: t, mark });
    }
  });
  // A stable sort keeps the series' own order within a mark.
  return rows.sort((a, b) => a.series - b.series || RANK[a.mark] - RANK[b.mark]);
}

/** The mark as the row shows it, or '' for threads with nothing to say. */
export function seriesMarkText(mark: SeriesMark): string {
  return mark === 'deadlocked' ? 'DEADLOCKED' : mark === 'stuck' ? 'STUCK' : '';
}
