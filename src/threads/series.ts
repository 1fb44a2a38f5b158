/**
 * The same thread across a series of dumps of one JVM. Identity comes from ids that do not change
 * while a thread lives (native id, Java id, name), never from the header text, which carries
 * `cpu=` and `elapsed=` that change on every dump (the trap TDA issue #23 fell into).
 */
import type { StackFrame, ThreadDump, ThreadEntry } from '../model/thread-dump.js';
import { groupByJvm, sightingOfDump } from './jvm-identity.js';

interface SeriesThread {
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
 * Groups dumps into series: dumps of one JVM (see jvmGroups) whose threads are mostly the same
 * (splitByIdentity), in the order given (the model orders dumps in time).
 */
export function seriesOfJvms(dumps: ThreadDump[], jvms: readonly number[][]): number[][] {
  return jvms
    .filter((g) => g.length >= 2)
    .flatMap((g) => splitByIdentity(dumps, g))
    .filter((g) => g.length >= 2);
}

/** How messages name a dump: `dump 2 of x.txt`. */
export function dumpLabel(d: ThreadDump): string {
  return `dump ${d.index + 1} of ${d.source}`;
}

/**
 * `dumpIndexes` grouped into the JVMs they can come from (see jvm-identity.ts), as indexes into
 * `dumps`, with why each group after the first is another JVM.
 */
export function jvmGroups(dumps: readonly ThreadDump[], dumpIndexes: readonly number[]): { groups: number[][]; reasons: string[] } {
  if (dumpIndexes.length < 2) return { groups: dumpIndexes.length === 0 ? [] : [[...dumpIndexes]], reasons: [] };
  const { groups, reasons } = groupByJvm(dumpIndexes.map((i) => sightingOfDump(dumps[i]!, dumpLabel(dumps[i]!))));
  return { groups: groups.map((g) => g.map((k) => dumpIndexes[k]!)), reasons };
}

/**
 * The same capture twice: the same instant and every thread with the same name, state, CPU time,
 * age and stack. Two real dumps, even a second apart, differ in CPU times or stacks somewhere.
 */
export function isCopyOf(a: ThreadDump, b: ThreadDump): boolean {
  if (a.timestampIso === undefined || a.timestampIso !== b.timestampIso || a.threads.length !== b.threads.length) return false;
  return a.threads.every((t, i) => {
    const u = b.threads[i]!;
    return (
      t.name === u.name &&
      t.state === u.state &&
      t.cpuMs === u.cpuMs &&
      t.elapsedS === u.elapsedS &&
      t.frames.length === u.frames.length &&
      t.frames.every((f, k) => f.qualified === u.frames[k]!.qualified && f.location === u.frames[k]!.location)
    );
  });
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

/** Frames that may change while a thread stays in one place: the top few of a loop that spins or recurses. */
const SAME_PLACE_TOP_TOLERANCE = 3;

/** Class.method of each frame (no line numbers), a run of one frame repeated (recursion) as one. */
function placeOf(frames: readonly StackFrame[]): string[] {
  const out: string[] = [];
  for (const f of frames) if (out[out.length - 1] !== f.qualified) out.push(f.qualified);
  return out;
}

/**
 * Did a thread stay in one place between two dumps? A waiting thread is parked at one exact point:
 * the same frames, lines included. A running thread is caught at a random point of what it runs,
 * so its stacks are compared by method, not line (a loop moves between lines), with the recursion
 * depth of one frame folded (a tree walk recurses deeper and back), and the top few frames free to
 * differ (the inner calls of a loop), as long as everything beneath them is the same.
 */
export function samePlace(a: readonly StackFrame[], b: readonly StackFrame[], running: boolean): boolean {
  if (a === b) return true;
  if (!running) return a.length === b.length && a.every((f, k) => f === b[k] || (f.qualified === b[k]!.qualified && f.location === b[k]!.location));
  const pa = placeOf(a);
  const pb = placeOf(b);
  let common = 0;
  while (common < pa.length && common < pb.length && pa[pa.length - 1 - common] === pb[pb.length - 1 - common]) common++;
  if (common === pa.length && common === pb.length) return true;
  // What differs must be only the top few frames of each, and what is shared must be more than a thread's root.
  return pa.length - common <= SAME_PLACE_TOP_TOLERANCE && pb.length - common <= SAME_PLACE_TOP_TOLERANCE && common >= 3;
}
