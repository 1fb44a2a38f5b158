/**
 * The Model: everything reconstructed from the inputs, which rules read and reports draw.
 * Thread-only for now; heap-backed executors, counters and pools join it later with the same shape.
 */
import type { LockRef, ThreadDump, JavaThreadState } from './thread-dump.js';

export interface InputSummary {
  readonly path: string;
  readonly kind: 'threads' | 'heap' | 'log';
  readonly format: string;
  readonly gzip: boolean;
  readonly encoding: string;
  readonly dumps: number;
  readonly threads: number;
  readonly unparsedLines: number;
  readonly outsideLines: number;
  readonly warnings: string[];
}

/** A thread reference that survives serialisation: dump index + thread index + what to show. */
export interface ThreadRef {
  readonly dump: number;
  readonly thread: number;
  readonly name: string;
}

export interface ExecutorModel {
  readonly name: string;
  /** `thread-names` for pools recognised from names; heap-backed ones later. */
  readonly source: 'thread-names';
  /** Named like an executor's workers, not just numbered threads (see threads/thread-pools.ts). */
  readonly namedLikePool: boolean;
  readonly dump: number;
  readonly workers: number;
  readonly busy: number;
  readonly idle: number;
  readonly busyThreads: ThreadRef[];
  readonly idleThreads: ThreadRef[];
  readonly busyActivities: Array<{ frame: string; count: number }>;
}

export interface LockModel {
  readonly dump: number;
  readonly lock: LockRef;
  readonly owner: ThreadRef | null;
  readonly waiters: Array<ThreadRef & { kind: string }>;
}

export interface DeadlockModel {
  readonly dump: number;
  readonly threads: ThreadRef[];
  readonly locks: LockRef[];
  readonly confidence: 'certain' | 'possible';
  readonly reportedByJvm: boolean;
  readonly note?: string;
}

export interface StackGroupModel {
  readonly dump: number;
  readonly state: JavaThreadState;
  readonly count: number;
  readonly topFrames: string[];
  readonly threads: ThreadRef[];
}

export interface SeriesModel {
  readonly dumps: number[];
  readonly threads: Array<{ name: string; key: string; states: Array<JavaThreadState | null>; indexes: Array<number | null>; sameStack: boolean }>;
}

export interface Model {
  readonly inputs: InputSummary[];
  /** Every dump of every input, thread dumps ordered in time within a series. */
  readonly dumps: ThreadDump[];
  readonly stateSummaries: Array<Record<JavaThreadState, number>>;
  readonly threadGroups: StackGroupModel[];
  readonly executors: ExecutorModel[];
  readonly locks: { readonly contended: LockModel[]; readonly deadlocks: DeadlockModel[] };
  readonly series: SeriesModel[];
  /** Filled from heap dumps in later versions. */
  readonly counters: never[];
  readonly connectionPools: never[];
  readonly shutdown: Record<string, never>;
}
