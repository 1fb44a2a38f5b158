/**
 * The thread-dump model: what every thread-dump parser produces, whatever the input format.
 * Plain data, no behaviour, so parsers, analyses, rules and renderers can share it freely.
 */

export type JavaThreadState = 'NEW' | 'RUNNABLE' | 'BLOCKED' | 'WAITING' | 'TIMED_WAITING' | 'TERMINATED' | 'UNKNOWN';

export type ThreadDumpFormat =
  | 'hotspot'
  | 'visualvm'
  | 'threadinfo'
  | 'jmx-legacy'
  | 'jrockit'
  | 'ibm-javacore'
  | 'jcmd-json'
  | 'actuator-json'
  /** Rebuilt from a heap dump's thread objects and HPROF stack traces (no lock lines). */
  | 'hprof';

/**
 * Formats that never carry the JVM's own deadlock report (`Found one Java-level deadlock`): a cycle
 * found in them was not "missed by the JVM", there was no report to miss it in.
 */
export const FORMATS_WITHOUT_JVM_DEADLOCK_REPORT: ReadonlySet<ThreadDumpFormat> = new Set<ThreadDumpFormat>([
  'threadinfo',
  'jcmd-json',
  'actuator-json',
  'hprof',
]);

/** One stack frame. Frames are interned per parse: identical lines share one object. */
export interface StackFrame {
  /** Dotted class name, e.g. `java.util.concurrent.ThreadPoolExecutor$Worker`. */
  readonly className: string;
  readonly method: string;
  /** `File.java:123`, `Native Method`, `Unknown Source`, ... (module prefix removed). */
  readonly location: string;
  /** `className.method` — what rules and pool heuristics match against. */
  readonly qualified: string;
}

/** A monitor or synchronizer as named by the dump: an address or identity hash, plus its class. */
export interface LockRef {
  /** Normalised id: lower-case hex address (`0x...`) or identity hash. Empty when the dump gave none. */
  readonly id: string;
  readonly className: string;
}

export type FrameLockKind =
  | 'locked'
  | 'waiting-on'
  /** Waiting for the class another thread initialises (JDK 17+ `waiting on the Class initialization monitor for X`); the lock names the class, with no id. */
  | 'waiting-class-init'
  | 'waiting-to-lock'
  | 'waiting-to-relock'
  | 'parking'
  | 'eliminated'
  | 'blocked-on';

/** A lock line attached to a frame (`- locked <0x..> (a X)` under frame `frameIndex`). */
export interface FrameLock {
  readonly frameIndex: number;
  readonly kind: FrameLockKind;
  readonly lock: LockRef | null;
}

/**
 * One thread of a dump. Its `frames`, `locks` and `ownableSynchronizers` arrays may be shared with
 * other threads once parsed (identical thread bodies share all three, identical stacks share frames,
 * threads with none share frozen empty ones), and answers are cached per frames array: treat them as
 * read-only after parsing, and build new arrays instead of changing them.
 */
export interface ThreadEntry {
  readonly name: string;
  /** Java thread id (`#12`, `Id=12`, `t@12`, `id=12`) as printed, when present. */
  javaId?: string | undefined;
  /** Native (OS) thread id, normalised to lower-case hex `0x..` (JDK 21 prints it decimal). */
  nativeId?: string | undefined;
  /** The JVM's `tid=0x...` thread address, when present. */
  address?: string | undefined;
  daemon: boolean;
  virtual: boolean;
  priority?: number | undefined;
  state: JavaThreadState;
  /** Qualifier of the state: `parking`, `sleeping`, `on object monitor`, ... */
  stateDetail?: string | undefined;
  /** HotSpot's header words (`waiting on condition`, `runnable`, ...), JRockit's flags, javacore's code. */
  headerState?: string | undefined;
  cpuMs?: number | undefined;
  elapsedS?: number | undefined;
  frames: StackFrame[];
  locks: FrameLock[];
  /** `Locked ownable synchronizers` (jstack -l), j.u.c. locks held exclusively. */
  ownableSynchronizers: LockRef[];
  /** The owner of the awaited lock as the dump names it (ThreadInfo, VisualVM, javacore, JSON). */
  lockOwnerName?: string | undefined;
  /** The owner's Java thread id, when the dump gives it (ThreadInfo `Id=`, JSON dumps). */
  lockOwnerId?: string | undefined;
  /** Virtual thread id carried by this carrier thread (JDK 21+). */
  carriedVirtualThread?: string | undefined;
  /** True when the dump cut the stack (`...` in ThreadInfo output, JRockit/javacore truncation). */
  stackTruncated: boolean;
  /**
   * The file this thread was read from when it is not its dump's: a JSON dump's virtual thread added
   * to the Thread.print dump of the same moment (threads/moments.ts). Its `line` is then 0.
   */
  readonly from?: string;
  /** 1-based line of the header in the source file (0 for JSON inputs). */
  line: number;
  /** Last line that belonged to this thread. */
  endLine: number;
}

export interface DeadlockReportEntry {
  readonly thread: string;
  /** What it waits for, as the JVM wrote it. */
  readonly waitingFor: string;
  readonly heldBy: string;
}

/** One cycle as reported by the JVM itself (`Found one Java-level deadlock:`). */
export interface JvmDeadlockReport {
  readonly line: number;
  readonly entries: DeadlockReportEntry[];
}

interface UnparsedLine {
  readonly line: number;
  readonly text: string;
}

export interface ThreadDump {
  /** Path of the source file (or `-` for stdin). */
  source: string;
  /** Index of this dump within its source file. */
  index: number;
  format: ThreadDumpFormat;
  startLine: number;
  endLine: number;
  /** The timestamp as printed. */
  timestamp?: string;
  /** The timestamp as ISO-8601 when it could be read (local time of the dumping machine, no zone). */
  timestampIso?: string;
  /** `Full thread dump ...` banner, runtime version. */
  jvm?: string;
  threads: ThreadEntry[];
  jvmDeadlocks: JvmDeadlockReport[];
  jniGlobalRefs?: number;
  jniWeakRefs?: number;
  /**
   * How many threads the dump itself says it holds (HotSpot's SMR `length=`, a javacore's thread
   * count, a JSON thread array), to reconcile with what was parsed. `what` says which threads count.
   */
  declaredThreads?: { readonly count: number; readonly what: string; readonly by: string };
  /**
   * Why the JVM wrote this dump, as it says itself (a javacore's `1TISIGINFO`: the event, `systhrow`
   * for a thrown error, and its detail, `java/lang/OutOfMemoryError "Java heap space"`), with its line.
   */
  trigger?: { readonly event: string; readonly detail?: string; readonly line: number };
  /** The heap's figures as the dump prints them (a javacore's `1STHEAPTOTAL`, `1STHEAPINUSE`), in bytes. */
  heapFigures?: { totalBytes?: number; inUseBytes?: number; readonly line: number };
  /** Lines inside this dump that no rule understood, kept for the report. */
  unparsed: UnparsedLine[];
  unparsedCount: number;
}

export interface ThreadDumpFile {
  readonly source: string;
  readonly dumps: ThreadDump[];
  /** Lines outside any dump (log lines around kill -3 output, HTTP headers, ...). */
  readonly outsideLines: number;
  readonly totalLines: number;
  readonly warnings: string[];
  /** The prefix a log put on every line, stripped before the dumps were read (see threads/line-prefix.ts), in words. */
  readonly linePrefix?: string;
  /** Why the file was not read whole (a cut gzip stream, a size limit, lines over the length limit); also among the warnings. */
  readonly cut?: string;
}
