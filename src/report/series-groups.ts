/**
 * Locks, deadlocks and thread groups of a report, each listed once however many dumps it is in, with
 * its values across the dumps side by side (waiting 5 → 6 → 6), instead of once per dump with the
 * same numbers. A lock is the same lock in two dumps when its class and address are; a deadlock when
 * the same threads are in it; a thread group when its state and stack are. HTML and Markdown draw
 * these rows.
 */
import type { LockModel, Model, StackGroupModel } from '../model/model.js';

export interface LockRow {
  /** `java.lang.Object <0x…>`. */
  readonly lock: string;
  readonly dumps: number[];
  /** The owner's name per dump (null: not known). */
  readonly owners: Array<string | null>;
  readonly waiting: number[];
}

export interface DeadlockRow {
  readonly threads: string[];
  readonly dumps: number[];
  readonly confidence: 'certain' | 'possible';
}

export interface GroupRow {
  readonly state: string;
  readonly topFrames: readonly string[];
  readonly dumps: number[];
  readonly counts: number[];
  /** The threads of the group in the last dump it is in. */
  readonly threads: StackGroupModel['threads'];
}

const lockText = (l: LockModel) => `${l.lock.className}${l.lock.id ? ` <${l.lock.id}>` : ''}`;

/** Contended locks, most waiters first (the model's order), one row per lock. */
export function lockRows(m: Model): LockRow[] {
  const rows = new Map<string, LockRow>();
  for (const l of m.locks.contended) {
    const key = lockText(l);
    let row = rows.get(key);
    if (row === undefined) rows.set(key, (row = { lock: key, dumps: [], owners: [], waiting: [] }));
    row.dumps.push(l.dump);
    row.owners.push(l.owner?.name ?? null);
    row.waiting.push(l.waiters.length);
  }
  // Within a row, dump order (the model sorts by waiters first).
  return [...rows.values()].map((r) => {
    const order = r.dumps.map((_, k) => k).sort((a, b) => r.dumps[a]! - r.dumps[b]!);
    return { lock: r.lock, dumps: order.map((k) => r.dumps[k]!), owners: order.map((k) => r.owners[k]!), waiting: order.map((k) => r.waiting[k]!) };
  });
}

export function deadlockRows(m: Model): DeadlockRow[] {
  const rows = new Map<string, DeadlockRow>();
  for (const d of m.locks.deadlocks) {
    const names = d.threads.map((t) => t.name);
    const key = [...names].sort().join('\u0000');
    const row = rows.get(key);
    if (row === undefined) rows.set(key, { threads: names, dumps: [d.dump], confidence: d.confidence });
    else row.dumps.push(d.dump);
  }
  return [...rows.values()];
}

/** Thread groups, largest first, one row per (state, stack) across the dumps. */
export function groupRows(m: Model): GroupRow[] {
  const rows = new Map<string, GroupRow & { threads: StackGroupModel['threads'] }>();
  for (const g of m.threadGroups) {
    const key = `${g.state}\u0000${g.topFrames.join('\u0000')}`;
    const row = rows.get(key);
    if (row === undefined) rows.set(key, { state: g.state, topFrames: g.topFrames, dumps: [g.dump], counts: [g.count], threads: g.threads });
    else if (row.dumps[row.dumps.length - 1] === g.dump) {
      // Two groups of one dump that differ below the frames shown are one row.
      row.counts[row.counts.length - 1]! += g.count;
      row.threads = [...row.threads, ...g.threads];
    } else {
      row.dumps.push(g.dump);
      row.counts.push(g.count);
      row.threads = g.threads;
    }
  }
  return [...rows.values()].sort((a, b) => Math.max(...b.counts) - Math.max(...a.counts));
}

/** The owners across dumps: one name when it stayed the same. */
export function ownersText(owners: ReadonlyArray<string | null>): string {
  const named = owners.map((o) => o ?? '?');
  return named.every((o) => o === named[0]) ? named[0]! : named.join(' → ');
}
