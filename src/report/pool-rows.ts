/**
 * The thread pools of a report, one row per pool: a pool seen in several dumps of a series is one
 * row with its values side by side (busy 40 → 40 → 40), not one row per dump; an executor found in
 * the heap is a row of its own. Text, Markdown and HTML draw the same rows.
 */
import { approximateBytes } from '../model/bytes.js';
import type { ExecutorModel } from '../model/model.js';

export interface PoolRow {
  readonly name: string;
  /** Dumps the pool is in, in order; empty for a heap executor. */
  readonly dumps: number[];
  /** Per dump (or the heap's single value). */
  readonly workers: number[];
  readonly busy: number[];
  /** Dumps in which every worker was busy. */
  readonly saturatedIn: number;
  /** A heap executor's queue, in words (`queue 1945/2000 (LinkedBlockingQueue) holding 2.1 MiB, max 40`). */
  readonly queue?: string;
}

/** Pools listed per report; the rest are counted. */
export const POOL_ROWS = 20;

/** The pools worth a row: executors (a worker loop or a heap object), grouped by name across dumps. */
export function poolRows(executors: readonly ExecutorModel[]): PoolRow[] {
  const rows: Array<PoolRow & { dumps: number[]; workers: number[]; busy: number[]; saturatedIn: number }> = [];
  const byName = new Map<string, (typeof rows)[number]>();
  const queueOf = (e: ExecutorModel): string | undefined => {
    const q = e.heap?.queue;
    if (q === undefined) return undefined;
    const held = q.retainedBytes !== undefined && (q.size ?? 0) > 0 ? ` holding ${approximateBytes(q.retainedBytes)}` : '';
    const max = e.heap!.maximumPoolSize;
    return (
      `queue ${q.size ?? '?'}${q.capacity !== null ? `/${q.capacity}` : ''} (${q.className.replace(/^.*\./, '')})${held}` +
      `, max ${max === null ? '?' : max >= 2147483647 ? 'unbounded' : max}`
    );
  };
  for (const e of executors) {
    if (!e.namedLikePool && e.heap === undefined) continue;
    const queue = queueOf(e);
    // An executor seen only in the heap is a row of its own; one of the dumps joins its pool's row.
    if (e.dump < 0) {
      rows.push({
        name: e.name,
        dumps: [],
        workers: [e.workers],
        busy: [e.busy],
        saturatedIn: e.workers > 0 && e.busy >= e.workers ? 1 : 0,
        ...(queue !== undefined ? { queue } : {}),
      });
      continue;
    }
    let row = byName.get(e.name);
    if (row === undefined) {
      row = { name: e.name, dumps: [], workers: [], busy: [], saturatedIn: 0 };
      byName.set(e.name, row);
      rows.push(row);
    }
    row.dumps.push(e.dump);
    row.workers.push(e.workers);
    row.busy.push(e.busy);
    if (e.workers > 0 && e.busy >= e.workers) row.saturatedIn++;
    // The heap is one moment: its queue is the pool's, whichever dump carries it.
    if (queue !== undefined && row.queue === undefined) (row as { queue?: string }).queue = queue;
  }
  return rows;
}

/** Values across dumps: one number when they agree, else side by side (or their range past six dumps). */
export function acrossDumps(values: readonly number[]): string {
  if (values.every((v) => v === values[0])) return String(values[0] ?? '');
  if (values.length <= 6) return values.join(' → ');
  return `${Math.min(...values)}–${Math.max(...values)}`;
}

/** `#0`, `#0–#2`, `#0, #3, #5`, or `heap`. */
export function dumpsText(dumps: readonly number[]): string {
  if (dumps.length === 0) return 'heap';
  const contiguous = dumps.every((d, k) => k === 0 || d === dumps[k - 1]! + 1);
  return dumps.length === 1 ? `#${dumps[0]}` : contiguous ? `#${dumps[0]}–#${dumps[dumps.length - 1]}` : dumps.map((d) => `#${d}`).join(', ');
}
