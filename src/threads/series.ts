/**
 * The same thread across a series of dumps of one JVM. Identity comes from ids that do not change
 * while a thread lives (native id, Java id, name), never from the header text, which carries
 * `cpu=` and `elapsed=` that change on every dump (the trap TDA issue #23 fell into).
 */
import type { ThreadDump, ThreadEntry } from '../model/thread-dump.js';

export interface SeriesThread {
  /** Stable key of the thread within the series. */
  readonly key: string;
  readonly name: string;
  /** Index of the thread in each dump of the series, or null where it is absent. */
  readonly indexes: Array<number | null>;
}

export interface ThreadSeries {
  /** Indexes into the model's dump list, in time order. */
  readonly dumps: number[];
  readonly threads: SeriesThread[];
}

function identity(th: ThreadEntry): string {
  if (th.nativeId !== undefined && th.javaId !== undefined) return `n:${th.nativeId}|j:${th.javaId}`;
  if (th.nativeId !== undefined && th.nativeId !== '0x0') return `n:${th.nativeId}|${th.name}`;
  if (th.javaId !== undefined) return `j:${th.javaId}|${th.name}`;
  return `name:${th.name}`;
}

export function matchSeries(dumps: ThreadDump[], dumpIndexes: number[]): ThreadSeries {
  const byKey = new Map<string, { name: string; indexes: Array<number | null> }>();
  const order: string[] = [];
  dumpIndexes.forEach((di, pos) => {
    const dump = dumps[di]!;
    const occurrences = new Map<string, number>();
    dump.threads.forEach((th, ti) => {
      const base = identity(th);
      // Placeholder ids (VisualVM's tid=0x0) or duplicated names: number the repeats.
      const n = occurrences.get(base) ?? 0;
      occurrences.set(base, n + 1);
      const key = n === 0 ? base : `${base}#${n}`;
      let entry = byKey.get(key);
      if (!entry) {
        entry = { name: th.name, indexes: new Array<number | null>(dumpIndexes.length).fill(null) };
        byKey.set(key, entry);
        order.push(key);
      }
      entry.indexes[pos] = ti;
    });
  });
  return { dumps: dumpIndexes, threads: order.map((key) => ({ key, name: byKey.get(key)!.name, indexes: byKey.get(key)!.indexes })) };
}

/**
 * Groups dumps into series: dumps of the same JVM (same banner, shared thread identities), in the
 * order given (the model orders dumps in time).
 */
export function seriesGroups(dumps: ThreadDump[]): number[][] {
  const groups = new Map<string, number[]>();
  dumps.forEach((d, i) => {
    const key = d.jvm ?? '?';
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    // Two captures of the same instant (jstack and jcmd side by side) say nothing about progress.
    const prev = g[g.length - 1];
    if (prev !== undefined && d.timestampIso !== undefined && dumps[prev]!.timestampIso === d.timestampIso) return;
    g.push(i);
  });
  return [...groups.values()]
    .filter((g) => g.length >= 2)
    .flatMap((g) => splitByIdentity(dumps, g))
    .filter((g) => g.length >= 2);
}

/**
 * Same JVM banner is not the same process: two JVMs of one JDK share it. Consecutive dumps belong
 * together only when most of their threads' identities (native id, Java id, name) are shared.
 */
function splitByIdentity(dumps: ThreadDump[], group: number[]): number[][] {
  const ids = (d: ThreadDump): Set<string> => new Set(d.threads.map(identity));
  const parts: number[][] = [];
  let current: number[] = [];
  let prevIds: Set<string> | null = null;
  for (const di of group) {
    const cur = ids(dumps[di]!);
    if (prevIds !== null) {
      let shared = 0;
      for (const k of cur) if (prevIds.has(k)) shared++;
      if (shared * 2 < Math.min(cur.size, prevIds.size)) {
        parts.push(current);
        current = [];
      }
    }
    current.push(di);
    prevIds = cur;
  }
  parts.push(current);
  return parts;
}
