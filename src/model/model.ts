/**
 * The Model: everything reconstructed from the inputs, which rules read and reports draw. Each
 * entity says where it came from (thread dumps, a heap object, log lines) so findings can cite it.
 */
import type { ThreadActivity } from './activity.js';
import type { CallTreesModel } from './call-tree.js';
import type { HeapMemoryModel } from './memory.js';
import type { JavaThreadState, LockRef, ThreadDump } from './thread-dump.js';

/** The format of a log input that holds `top -H` samples and no line of an application log. */
export const TOP_CAPTURE_FORMAT = 'top -H';

/** Whether an input is an application log (a `top -H` capture read as a log is not). */
export function isApplicationLog(input: Pick<InputSummary, 'kind' | 'format'>): boolean {
  return input.kind === 'log' && input.format !== TOP_CAPTURE_FORMAT;
}

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
  /** A heap dump's size, from its class histogram (absent for thread dumps, logs and extracts without one). */
  readonly heap?: HeapSize;
  /** For a log: what was found in it, counted (`2 hung-thread reports`, `3 top -H samples`). */
  readonly found?: readonly string[];
  /** For dumps inside a log that prefixed every line: which prefix was stripped, in words. */
  readonly linePrefix?: string;
  /**
   * Why this input was not read whole (the file ends mid-record, a gzip stream is cut, a size limit
   * stopped it, lines over the length limit were cut); absent when it was read to its end. What the
   * report says of it was said from what came before.
   */
  readonly cut?: string;
}

/** A file of the incident that was not read: found in its directory but no kind dumpsleuth reads, or given and unreadable. */
export interface LeftOutInput {
  readonly path: string;
  /** Why, in words (`it is a PNG image`, `the file ends before the HPROF header does`). */
  readonly why: string;
  /** Given by name (or named like a dump) and could not be read: evidence the analysis lacks, not a stray file. */
  readonly evidence: boolean;
}

export interface HeapSize {
  /** Every object of the dump: instances and arrays. */
  readonly objects: number;
  /** Shallow bytes of those objects, estimated the way `histogram` does (HPROF does not store the layout). */
  readonly shallowBytes: number;
  /** Classes with at least one object. */
  readonly classes: number;
}

/** A thread reference that survives serialisation: dump index + thread index + what to show. */
export interface ThreadRef {
  readonly dump: number;
  readonly thread: number;
  readonly name: string;
}

/** A heap object cited as evidence: which heap input, its id (hex) and class. */
interface HeapObjectRef {
  readonly input: string;
  readonly id: string;
  readonly className: string;
}

/** What the heap says about an executor (a ThreadPoolExecutor or subclass). */
export interface ExecutorHeapState {
  readonly object: HeapObjectRef;
  readonly runState: 'RUNNING' | 'SHUTDOWN' | 'STOP' | 'TIDYING' | 'TERMINATED' | 'UNKNOWN';
  readonly corePoolSize: number | null;
  readonly maximumPoolSize: number | null;
  /** Live workers (the `workers` set), and those running a task (Worker lock state 1) or about to (-1). */
  readonly poolSize: number;
  readonly activeWorkers: number;
  readonly largestPoolSize: number | null;
  readonly completedTasks: number | null;
  readonly queue: {
    readonly className: string;
    readonly size: number | null;
    readonly capacity: number | null;
    readonly complete: boolean;
    /** The queue object's dump id (hex), when it was loaded. */
    readonly id?: string;
    /** What the queue retains (its nodes and the tasks only it holds), when the memory analysis ran. */
    readonly retainedBytes?: number;
  };
  /** Names of the worker threads, as the heap's Thread objects say. */
  readonly workerThreadNames: string[];
}

export interface ExecutorModel {
  readonly name: string;
  /** `thread-names`: recognised from thread names only; `heap`: a heap object with no matching threads; `heap+threads`: both. */
  readonly source: 'thread-names' | 'heap' | 'heap+threads';
  /** A real executor: threads running one worker loop or taking work from one queue, or an executor object in the heap (see threads/thread-pools.ts). */
  readonly namedLikePool: boolean;
  /** The kind of worker loop its threads run (`ThreadPoolExecutor`, `WebLogic work manager`, ...); null for a heap-only executor. */
  readonly loop: string | null;
  readonly dump: number;
  readonly workers: number;
  readonly busy: number;
  readonly idle: number;
  readonly busyThreads: ThreadRef[];
  readonly idleThreads: ThreadRef[];
  readonly busyActivities: Array<{ frame: string; count: number }>;
  /** Present when a heap dump of the same JVM holds this executor. */
  readonly heap?: ExecutorHeapState;
}

/** An in-flight counter with a limit (Dubbo RpcStatus with executes/actives, user-declared ones). */
export interface CounterModel {
  readonly kind: 'dubbo-executes' | 'dubbo-actives' | 'user';
  /** `service#method` (or the user's counter name): the subject of findings. */
  readonly name: string;
  readonly service: string;
  readonly method: string | null;
  /** Dubbo's URL identity string (`dubbo://host:port/service`), when it is one. */
  readonly identity: string | null;
  readonly active: number;
  readonly limit: number | null;
  /** Where the limit came from (`sayHello.executes` in the URL parameters, a config path). */
  readonly limitSource: string | null;
  readonly total: number | null;
  readonly failed: number | null;
  /** Per thread dump of the same JVM: how many threads are inside the guarded method. */
  readonly threadsInside: Array<{ readonly dump: number; readonly count: number; readonly threads: ThreadRef[] }>;
  /** Rejections of this method found in logs. */
  readonly rejectionsLogged: number;
  readonly object: HeapObjectRef;
  /** The service-wide counter of the same service, for context. */
  readonly serviceActive: number | null;
}

/** An HTTP or DB connection pool (or a call dispatcher) and who waits for it. */
export interface ConnectionPoolModel {
  readonly kind: 'apache-httpclient-4' | 'apache-httpclient-5' | 'okhttp-dispatcher' | 'hikaricp' | 'druid' | 'commons-pool2' | 'semaphore';
  readonly name: string;
  /** The route or host the numbers are for (`http://10.0.0.7:8080`), null for a whole pool. */
  readonly route: string | null;
  /** How many may be in use at once on that route (or in the pool). */
  readonly width: number | null;
  readonly maxTotal: number | null;
  readonly leased: number | null;
  readonly idle: number | null;
  /** Requests waiting for a lease, as the pool counts them. */
  readonly pending: number | null;
  /** Threads whose stacks wait in this kind of pool's lease method, per dump. */
  readonly waitingThreads: Array<{ readonly dump: number; readonly threads: ThreadRef[] }>;
  /** `heap` (numbers from the pool object) or `threads` (only stacks: no width, no counts). */
  readonly source: 'heap' | 'threads';
  readonly object: HeapObjectRef | null;
  /** With the memory analysis: what the pool object retains, and what its queue of pending requests does. */
  readonly retainedBytes?: number;
  readonly pendingRetainedBytes?: number;
  /**
   * Threads the heap shows parked on a future or latch that a request of this pool reaches (by
   * name): of a request still queued (these are in waitingThreads too), or of one in flight (like
   * a lease holder, it waits for the downstream, not for the pool).
   */
  readonly callersWaiting?: { readonly queued: readonly string[]; readonly inFlight: readonly string[] };
}

export interface ShutdownHookModel {
  readonly kind: 'dubbo' | 'spring' | 'jvm';
  readonly thread: ThreadRef;
  /** What it is doing, in one line (`sleeping in HeaderExchangeServer.close`). */
  readonly doing: string;
}

export interface ShutdownModel {
  /** Per thread dump taken while the JVM was shutting down. */
  readonly dumps: Array<{ readonly dump: number; readonly hooks: ShutdownHookModel[]; readonly inFlight: ThreadRef[] }>;
}

/** Known high-signal log lines, counted per kind. */
export interface LogEventModel {
  readonly kind:
    'dubbo-pool-exhausted' | 'dubbo-executes-rejected' | 'dubbo-actives-timeout' | 'hung-thread-reported' | 'hung-thread-recovered' | 'server-pool-full';
  readonly count: number;
  readonly first: { readonly source: string; readonly line: number; readonly text: string };
  readonly last: { readonly source: string; readonly line: number; readonly text: string };
  /** Numbers the line carries (pool size, active, max, queue tasks; the executes limit), from the last one. */
  readonly facts: Readonly<Record<string, number | string>>;
  /** For rejections: the method and service they name. */
  readonly service?: string;
  readonly method?: string;
  /** For a hung-thread report: the thread it names, as the server writes it. */
  readonly thread?: string;
  /** For a hung-thread report: the stack the server logged under it (the last report's), top first. */
  readonly frames?: readonly string[];
}

/** One frame of `top -H` output: the CPU each thread (by native id) used, as top measured it. */
export interface CpuSampleModel {
  readonly source: string;
  /** Line of the frame's `top -` header (or of its column header). */
  readonly line: number;
  /** The clock time top printed (`01:13:20`), when it did. */
  readonly takenAt?: string;
  readonly threads: Array<{
    /** The PID as dumps write a native id: `0x3c05`. */
    readonly nativeId: string;
    readonly pid: number;
    /** Share of one core over top's interval, in percent. */
    readonly cpuPercent: number;
    /** CPU time the thread has used since it started (TIME+). */
    readonly cpuSeconds?: number;
    /** The thread's name as top shows it (cut at 15 characters by Linux). */
    readonly command: string;
    readonly line: number;
  }>;
}

/** An asynchronous log appender found in a heap dump, with its queue's fill. */
export interface AsyncAppenderModel {
  readonly input: string;
  readonly framework: string;
  readonly className: string;
  readonly id: string;
  readonly name: string | null;
  readonly queueSize: number | null;
  readonly capacity: number | null;
}

/** A heap dump's finalizer queue: objects whose finalize() waits for the Finalizer thread. */
export interface FinalizerQueueModel {
  readonly input: string;
  readonly queueLength: number;
  readonly queueId: string;
  readonly className: string;
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
  /** What a possible cycle's unproven edge goes through: `read lock` (a holder inferred), `future` (a task's result awaited). */
  readonly through?: 'read lock' | 'future';
}

export interface StackGroupModel {
  readonly dump: number;
  readonly state: JavaThreadState;
  readonly count: number;
  readonly topFrames: string[];
  /** The verdict of the group's first thread (threads with one stack share it unless their locks differ). */
  readonly activity: ThreadActivity;
  readonly threads: ThreadRef[];
}

export interface SeriesThreadModel {
  readonly name: string;
  readonly key: string;
  readonly states: Array<JavaThreadState | null>;
  readonly indexes: Array<number | null>;
  /** The very same frames in every dump. */
  readonly sameStack: boolean;
  /** In every dump, and in one place throughout (threads/series.ts samePlace: running threads compared with tolerance). */
  readonly samePlace: boolean;
  /** CPU the thread used between its first and last dump (JDK 11+ `cpu=`), null when unknown. */
  readonly cpuMsDelta: number | null;
}

export interface SeriesModel {
  readonly dumps: number[];
  /** Seconds between the first and the last dump, when both have timestamps. */
  readonly spanSeconds: number | null;
  readonly threads: SeriesThreadModel[];
}

export interface Model {
  readonly inputs: InputSummary[];
  /** Every dump of every input, thread dumps ordered in time within a series. */
  readonly dumps: ThreadDump[];
  /**
   * Per dump, per thread: the one ref every part of the model cites it by. Also the cheap way to read
   * every thread's name: the refs lie side by side in memory, the threads with their stacks do not.
   */
  readonly threadRefs: ThreadRef[][];
  readonly stateSummaries: Array<Record<JavaThreadState, number>>;
  /** Per dump, per thread: idle, working, blocked or housekeeping, with the reason (threads/thread-activity.ts). */
  readonly activity: ThreadActivity[][];
  /** Where the threads' stacks go, merged into trees (the HTML report's flame graphs, the UI's Calls screen). */
  readonly callTrees: CallTreesModel;
  readonly threadGroups: StackGroupModel[];
  readonly executors: ExecutorModel[];
  readonly locks: { readonly contended: LockModel[]; readonly deadlocks: DeadlockModel[] };
  readonly series: SeriesModel[];
  readonly counters: CounterModel[];
  readonly connectionPools: ConnectionPoolModel[];
  readonly shutdown: ShutdownModel;
  readonly logEvents: LogEventModel[];
  /** Asynchronous log appenders of the heap dumps, with their queues. */
  readonly asyncAppenders: AsyncAppenderModel[];
  /** Per heap dump: the finalizer queue's length (java.lang.ref.Finalizer.queue). */
  readonly finalizerQueues: FinalizerQueueModel[];
  /** Per-thread CPU samples from `top -H` inputs, in the order given. */
  readonly cpuSamples: CpuSampleModel[];
  /** Per heap input: what holds its memory (the dominator tree's summary), or why it was not computed. */
  readonly memory: HeapMemoryModel[];
  /** What a heap dump would add when none was given (threads-only runs), or why one could not be used. */
  readonly notes: string[];
  /**
   * Evidence the answer may depend on that the inputs do not hold, in words (virtual threads a
   * Thread.print dump cannot list, a heap dump a capture asked for and did not get). Each is also
   * among the notes; every report says them at its top, with the inputs read in part.
   */
  readonly missingEvidence: readonly string[];
  /** The files of the incident that were not read, and why (the first LEFT_OUT_KEPT; `leftOutMore` counts the rest). */
  readonly leftOut: readonly LeftOutInput[];
  readonly leftOutMore: number;
}

/** Left-out files a model lists one by one; a directory of thousands of other files is counted past them. */
export const LEFT_OUT_KEPT = 50;
