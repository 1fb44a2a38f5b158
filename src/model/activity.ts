/** What each thread is doing, as the activity classifier (src/threads/thread-activity.ts) decides. */

/**
 * - `idle`: waiting for work or for events in its own loop (a queue take, a pool's get-task, a
 *   timer's nap, a selector, a listener reading the next request, main waiting for shutdown).
 * - `working`: running code, or waiting inside a task or request (for a future, a socket read of a
 *   client call, a downstream pool).
 * - `blocked`: waiting to acquire a lock another thread holds.
 * - `housekeeping`: the JVM's, JFR's, the attach API's, an IDE's or a test harness's own threads,
 *   and the thread that is taking the dump.
 */
type Activity = 'idle' | 'working' | 'blocked' | 'housekeeping';

/**
 * What decided a verdict: the kind of evidence, for scripts; `reason` says it in words. A list, not only
 * a type, so the published schema's enum is held to it by a test.
 */
export const ACTIVITY_BASES = [
  'no-stack',
  'thread-name',
  'known-frame',
  'own-loop',
  'own-loop-nap',
  'listener',
  'wait-object',
  'shutdown-wait',
  'lock',
  'class-init',
  'holds-lock',
  'pressure',
  'in-request',
  'in-task',
  'nap',
  'work-wait-method',
  'running',
  // Waits deep in a thread of its own: no task, request, lock others need or CPU shows work (idle).
  'no-work-shown',
  // RUNNABLE in a native method no row knows, in a thread of its own: running or blocked, one dump cannot tell (working).
  'native',
  // RUNNABLE but used no CPU between two dumps: blocked in the kernel (idle, or working inside a task or request).
  'no-cpu',
  // Used most of a core between two dumps although its frames read as a wait: working.
  'cpu-used',
] as const;

type ActivityBasis = (typeof ACTIVITY_BASES)[number];

export interface ThreadActivity {
  readonly activity: Activity;
  readonly basis: ActivityBasis;
  /** One sentence a user can read: why the thread got this verdict. */
  readonly reason: string;
  /** The frame the verdict rests on (`Class.method`), when one does. */
  readonly frame?: string;
}
