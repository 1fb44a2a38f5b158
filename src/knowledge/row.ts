/**
 * One shape for everything the analysis knows about frameworks, servers and the JVM: a row says what
 * a `match` (a frame, a package, a thread name) is, its `role`, what it `means` in words the user
 * reads, and its `source` (keys of sources.ts, each a public document). Classifiers and rules read
 * rows by role; a new idiom is one row, a new idea a function over roles.
 */
import type { ConnectionPoolModel } from '../model/model.js';

/** What a row's `match` is matched against, by role. */
export type MatchKind = 'frame' | 'package' | 'thread-name' | 'method-name';

/**
 * Frame matches are `Class.method`, matched as a suffix at a package boundary (so shaded copies such
 * as `io.grpc.netty.shaded.io.netty...` match too), or `prefix.*`, a package or class prefix.
 * Package matches are `prefix.*`. Thread-name and method-name matches are regular expressions.
 */
export const MATCH_KIND = {
  /** A loop's own wait for work or events: idle (with `outsideTaskOnly`, only when no task runs beneath it). */
  idle: 'frame',
  /** A wait for the next item (a queue take, a condition, a nap, a select): idle in a thread's own loop, work under a task or request. */
  'idle-outside-task': 'frame',
  /** A wait on a peer (a socket read): idle only for a listener reading its next message, work in a call. */
  ambiguous: 'frame',
  /** Looks like waiting, means work held up: a future, a latch, a lease from a pool, a remote call. */
  pressure: 'frame',
  /** JVM, JFR, attach, IDE and test-harness threads: never the application's problem. */
  housekeeping: 'frame',
  /** Server code reading the next request or message on a connection: makes a socket read beneath it idle. */
  'next-message': 'frame',
  /** Handling a request or message: any wait above it is part of the work. */
  request: 'frame',
  /** An executor's worker run loop: the thread is a pool worker, and tasks start above this frame. */
  'pool-loop': 'frame',
  /** Where a task or a thread's run method starts: application frames are counted from here. */
  boundary: 'frame',
  /** A pool's lease method: a thread parked in it waits for a connection or permit of that kind of pool. */
  'lease-wait': 'frame',
  /** An appender's frame where a thread waits inside a log call, or a logger's API (`api`): a wait above it is inside a log call. */
  'logging-wait': 'frame',
  /** The run method of an event loop: a thread whose stack holds it is an I/O thread that must never block. */
  'event-loop': 'frame',
  /** A shutdown hook at work (the JVM's, Spring's, Dubbo's): the process is stopping. */
  'shutdown-hook': 'frame',
  /** A client call in progress with a connection in hand (an HTTP exchange): the thread holds a pool's lease. */
  'client-call': 'frame',
  /** A blocking read or write of a socket or a file: a wait although the thread reads RUNNABLE. */
  'blocking-io': 'frame',
  /**
   * A public API of the JDK that reads input (a reader, a stream, a console, a channel): a wait above
   * it is that read, whatever code lies between (a vendor's buffer, a native method). Accepts are waits of their own.
   */
  'input-api': 'frame',
  /** A package of the JDK (or of a JVM's own runtime): never the application's loop or task. */
  'jdk-code': 'package',
  /** A thread the JVM or a tool runs, known by its name (for dumps that print no frames for it). */
  'jvm-thread-name': 'thread-name',
  /** A garbage-collector thread, by name: its CPU is the JVM collecting, not the application working. */
  'gc-thread-name': 'thread-name',
  /** A program's main thread: waiting shallowly there is waiting for shutdown. */
  'main-thread-name': 'thread-name',
  /** Thread names that carry an instance number (group 1): one instance of a factory per number. */
  'instance-naming': 'thread-name',
  /** How a server names its pool threads: the pool's name is group 1. */
  'pool-naming': 'thread-name',
  /** Text an application appends to a worker's name while it works (`pool-1-thread-3 @@ order 42`): not part of the pool's name. */
  'name-annotation': 'thread-name',
  /** Method names that say "wait for the next piece of work", wherever the loop sits. */
  'work-wait-method': 'method-name',
  /** Method names that say "read the next request or message": a read beneath one, in the loop's own code, waits for a peer. */
  'next-message-method': 'method-name',
  /** Names of native methods that wait for input (read, receive, accept, listen, poll): an unknown library's wait. */
  'native-input-method': 'method-name',
} as const satisfies Record<string, MatchKind>;

export type Role = keyof typeof MATCH_KIND;

/** The facts a row of some roles carries beside its meaning. */
interface RoleDetails {
  readonly idle: {
    /** Idle only when what lies beneath is the pool's loop, not a task (TPE getTask, FJP awaitWork). */
    readonly outsideTaskOnly?: boolean;
  };
  readonly 'idle-outside-task': {
    /**
     * A wait for time or for a private signal, not for an item from a queue (a sleep, a bare park).
     * A thread's own loop naps between rounds; a task that naps or parks on its own holds its worker.
     */
    readonly nap?: boolean;
    /** A sleep (Thread.sleep, TimeUnit.sleep): time passing, no wait for an event (a holder of a lock that sleeps makes its waiters wait for nothing). */
    readonly sleep?: boolean;
    /** A wait for input from outside (a connection to accept, a datagram): threads queued to do it take turns. */
    readonly input?: boolean;
  };
  readonly 'pool-loop': {
    /** The kind of executor, which names the pool with the thread-name stem. */
    readonly pool: string;
    /** A pool made for computing (about one worker per core, work-stealing): all its workers computing is its job, not saturation. */
    readonly computes?: boolean;
  };
  readonly boundary: {
    /** The thread's own start (Thread.run): what runs above it is the thread's own code, not a pool's task. */
    readonly threadStart?: boolean;
  };
  readonly pressure: {
    /** A wait for a task's result (a future, a join): its thread is a caller of an executor. */
    readonly taskResult?: boolean;
  };
  readonly request: {
    /** The server whose requests these are, when a rule reads that server's counters (Dubbo). */
    readonly server?: string;
  };
  readonly 'shutdown-hook': { readonly hook: 'dubbo' | 'spring' | 'jvm' };
  readonly 'lease-wait': { readonly kind: ConnectionPoolModel['kind']; readonly pool: string };
  readonly 'logging-wait': {
    readonly framework: string;
    /** A full queue of an asynchronous appender (else a lock). */
    readonly queue?: boolean;
    /** A logger's API (what the application called), not an appender: any wait above it is inside a log call. */
    readonly api?: boolean;
  };
  readonly 'event-loop': {
    readonly framework: string;
    /** Packages of the loop's own code (its I/O handling, pipeline and codecs). */
    readonly ownPackages: readonly string[];
  };
  readonly 'instance-naming': {
    /** How every name of the scheme begins (what the pattern asks first, as plain text). */
    readonly starts: readonly string[];
    /** The scheme as users read it, `#` for numbers. */
    readonly scheme: string;
    readonly remedy: string;
    /** Each instance is one thread started by hand (not a pool): many of them are an explosion whatever they do. */
    readonly threadPerInstance?: boolean;
  };
  readonly 'pool-naming': {
    /** The server, when its pools serve requests (Dubbo's provider pool). */
    readonly server?: string;
  };
}

interface RowBase<R extends Role> {
  readonly match: string;
  readonly role: R;
  /** What it means, in words the user reads in a verdict's or a finding's reason. */
  readonly means: string;
  /** `KEY` or `KEY (detail)`, `; `-separated, each KEY a public source of sources.ts. */
  readonly source: string;
}

/** Roles whose facts are all optional take them optionally; the others must give them. */
type DetailArgs<R extends Role> = R extends keyof RoleDetails ? (object extends RoleDetails[R] ? [RoleDetails[R]?] : [RoleDetails[R]]) : [];

type DetailField<R extends Role> = R extends keyof RoleDetails
  ? object extends RoleDetails[R]
    ? { readonly detail?: RoleDetails[R] }
    : { readonly detail: RoleDetails[R] }
  : object;

export type KnowledgeRow = { [R in Role]: RowBase<R> & DetailField<R> }[Role];

export type RowOf<R extends Role> = Extract<KnowledgeRow, { readonly role: R }>;

/** A row, written in one line where it fits. */
export function row<R extends Role>(match: string, role: R, means: string, source: string, ...detail: DetailArgs<R>): RowOf<R> {
  const d = detail[0];
  return (d === undefined ? { match, role, means, source } : { match, role, means, source, detail: d }) as unknown as RowOf<R>;
}
