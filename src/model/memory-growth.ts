/**
 * What grew between heap dumps of one program, as plain data: per class the instances, shallow and
 * retained bytes at each moment, ordered by growth, and what holds the new objects of the classes that
 * grew most (the dominator they sit under, its path from the GC roots, its own size at each moment).
 * The memory analysis (heap/memory/) computes it; reports draw it.
 */
import type { PathStep, RetainedObject } from './memory.js';

/** One heap dump of the comparison, oldest first. */
export interface GrowthMoment {
  readonly source: string;
  /** When the dump was written, by its own header (HPROF), in ms since the epoch; absent when the format has no time. */
  readonly timestampMs?: number;
  readonly objects: number;
  /** Bytes reachable from the GC roots. */
  readonly retainedBytes: number;
  /** Why the dump was not read whole (its figures are of the part read, so the growth from or to it is not the program's). */
  readonly cut?: string;
}

/** A class at each moment, oldest first (0 where it had no instance). */
export interface ClassTrend {
  readonly className: string;
  readonly instances: readonly number[];
  readonly shallow: readonly number[];
  /** What its top-level instances retain (see ClassRetained). */
  readonly retained: readonly number[];
}

/** What holds the instances of a class that grew: the deepest object dominating most of them in the newest heap. */
export interface GrowthHolder {
  /** The classes whose instances sit under it, with how many of their instances it dominates in the newest heap. */
  readonly holds: ReadonlyArray<{ readonly className: string; readonly instances: number; readonly ofInstances: number }>;
  /** The holder in the newest heap. */
  readonly object: RetainedObject;
  /**
   * The static field, thread or root that keeps it, in words (`com.acme.Audit.ENTRIES (static)`,
   * `thread "main" (a local of a frame)`), from its path; absent when the path names none.
   */
  readonly heldBy?: string;
  /** The shortest strong path from a GC root to it in the newest heap (empty: none). */
  readonly path: readonly PathStep[];
  /**
   * Its retained bytes at each moment, oldest first: null where the older heap holds those classes
   * elsewhere (another place in its dominator tree), so its growth there is not known.
   */
  readonly retained: ReadonlyArray<number | null>;
}

export interface MemoryGrowth {
  readonly moments: readonly GrowthMoment[];
  /** Classes whose instances or bytes changed between the first and the last moment, biggest shallow growth first (shrinking ones last). */
  readonly classes: readonly ClassTrend[];
  /** How many classes changed in all (classes lists up to a limit). */
  readonly changedClasses: number;
  /** The holders of the classes that grew most, biggest growth first. */
  readonly holders: readonly GrowthHolder[];
}

/** The change from the first to the last moment of a per-moment series. */
export function change(series: readonly number[]): number {
  return series.length === 0 ? 0 : series[series.length - 1]! - series[0]!;
}
